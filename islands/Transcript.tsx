// The live part of a conversation: runs started or resumed on this page, streamed as they go
// (prose per animation frame, never a whole-message re-render), the approval and clarify
// cards the session waits on, and the loader of older turns above the server-rendered
// history. Survives dropped connections (lib/browser/stream_client.ts), reloads mid-answer (the
// server folds the journal so far; the stream resumes after it) and chat switches.
// Talks to the composer and sidebar only through `hermes:*` events (lib/shared/ui_events.ts).
import { Component, createRef, render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../lib/browser/api_client.ts";
import type { ApprovalEventData, SequencedEvent } from "../lib/shared/chat_events.ts";
import { emitHermesEvent, onHermesEvent } from "../lib/shared/ui_events.ts";
import { type FollowOutcome, followStream } from "../lib/browser/stream_client.ts";
import {
  alignedPage,
  applyEvent,
  type ClarifyRequest,
  createLiveRun,
  foldMessages,
  type LiveRun,
  type Segment,
  type ToolCallRecord,
  type TranscriptMessage,
} from "../lib/shared/transcript_model.ts";
import { LiveProse, renderSegmentsHtml } from "../lib/browser/live_prose.ts";
import { TurnView } from "../components/TurnView.tsx";
import { ApprovalCard } from "../components/ApprovalCard.tsx";
import { ClarifyCard } from "../components/ClarifyCard.tsx";

export interface TranscriptProps {
  sessionId: string;
  /** Older messages exist before this idx (the history's loader marker carries it too). */
  olderBefore: number | null;
  /** The run in progress, folded from its journal by the server (segments with html). */
  live: LiveRun | null;
  approval: { pending: ApprovalEventData | null; pending_count: number };
  clarify: ClarifyRequest | null;
  skipApprovals: boolean;
}

/** A tool in flight shows its own spinner (on the Activity row): no second one below. */
const IN_FLIGHT = new Set(["pending", "running", "awaiting_approval"]);

/** Rows asked for per older page (whole turns are completed by alignedPage). */
const OLDER_ROWS = 30;

interface SessionAnswer {
  session: {
    messages: TranscriptMessage[];
    tool_calls?: ToolCallRecord[];
    active_stream_id?: string | null;
    _messages_offset?: number;
  };
}

/** A streamed segment's element: written by LiveProse only, never re-rendered by Preact. */
class LiveSegment extends Component<
  { seg: Segment; sinkKey: string; prose: LiveProse; streaming: boolean }
> {
  private el = createRef<HTMLDivElement>();
  override shouldComponentUpdate() {
    return false;
  }
  override componentDidMount() {
    const { prose, sinkKey, seg, streaming } = this.props;
    if (this.el.current) prose.attach(sinkKey, this.el.current, seg, streaming);
  }
  override componentWillUnmount() {
    this.props.prose.detach(this.props.sinkKey);
  }
  render() {
    return (
      <div
        ref={this.el}
        class="msg msg-assistant prose"
        data-seg={this.props.seg.key}
        // deno-lint-ignore react-no-danger
        dangerouslySetInnerHTML={{ __html: this.props.seg.html ?? "" }}
      />
    );
  }
}

const sinkKey = (run: LiveRun, seg: Segment) => `${run.streamId}:${seg.key}`;

function endReason(run: LiveRun): "done" | "cancel" | "error" {
  return run.phase === "cancelled" ? "cancel" : run.phase === "error" ? "error" : "done";
}

function scroller(): HTMLElement | null {
  return document.querySelector<HTMLElement>(".transcript");
}

/** Show the newest content (the transcript scrolls in reverse: its start is the bottom). */
function scrollToEnd(): void {
  const s = scroller();
  if (s) s.scrollTop = s.scrollHeight;
}

/** One delegated listener gives every rendered code block's Copy button its behaviour. */
function installCodeCopy(): () => void {
  const onClick = async (e: MouseEvent) => {
    const btn = (e.target as Element | null)?.closest?.(".code-copy");
    if (!(btn instanceof HTMLButtonElement)) return;
    const code = btn.closest(".code-block")?.querySelector("code")?.textContent ?? "";
    let ok = false;
    try {
      await navigator.clipboard.writeText(code);
      ok = true;
    } catch {
      // No clipboard API (plain http): copy through a selection.
      const area = document.createElement("textarea");
      area.value = code;
      area.setAttribute("readonly", "");
      area.className = "visually-hidden";
      document.body.append(area);
      area.select();
      ok = document.execCommand("copy");
      area.remove();
    }
    btn.textContent = ok ? "Copied" : "Copy failed";
    btn.dataset.state = ok ? "copied" : "failed";
    setTimeout(() => {
      btn.textContent = "Copy";
      delete btn.dataset.state;
    }, 1500);
  };
  document.addEventListener("click", onClick);
  return () => document.removeEventListener("click", onClick);
}

export default function Transcript(props: TranscriptProps) {
  const { sessionId } = props;
  const runs = useRef<LiveRun[]>(props.live ? [props.live] : []);
  const prose = useRef<LiveProse>(null as unknown as LiveProse);
  prose.current ??= new LiveProse();
  const [, setVersion] = useState(0);
  const frame = useRef(0);
  const follows = useRef(new Set<ReturnType<typeof followStream>>());
  const [approval, setApproval] = useState(props.approval);
  const [clarify, setClarify] = useState<ClarifyRequest | null>(props.clarify);
  const [conn, setConn] = useState<
    { state: "reconnecting" } | { state: "lost"; run: LiveRun; error: string } | null
  >(null);
  const [skip, setSkip] = useState(props.skipApprovals);

  const rerender = () => setVersion((v) => v + 1);
  /** Re-render at the next frame (reasoning grows token by token). */
  const rerenderSoon = () => {
    frame.current ||= requestAnimationFrame(() => {
      frame.current = 0;
      rerender();
    });
  };

  async function refreshPending() {
    try {
      const p = await api<{ pending: ApprovalEventData | null; pending_count: number }>(
        "GET",
        `/api/approval/pending?session_id=${encodeURIComponent(sessionId)}`,
      );
      setApproval({ pending: p.pending, pending_count: p.pending_count });
    } catch { /* the next approval event brings the queue again */ }
  }

  /** Settle every segment of `run` the model has moved past (all of them once it ended). */
  function finishSegments(run: LiveRun) {
    const segs = run.turn.segments;
    const upto = run.ended ? segs.length : segs.length - 1;
    for (let i = 0; i < upto; i++) prose.current.finish(sinkKey(run, segs[i]));
  }

  function onEvent(run: LiveRun, e: SequencedEvent) {
    const change = applyEvent(run, e);
    if (change === "none") return;
    if (change === "text") return prose.current.schedule();
    if (change === "thinking") return rerenderSoon();
    switch (e.event) {
      case "approval":
        setApproval({ pending: e.data, pending_count: Math.max(1, e.data.pending_count) });
        break;
      case "approval_resolved":
        if (e.data.pending_count > 0) refreshPending();
        else setApproval({ pending: null, pending_count: 0 });
        break;
      case "clarify":
        setClarify(e.data);
        break;
      case "tool_complete":
        if (!run.clarify) setClarify((c) => (e.data.name === "clarify" ? null : c));
        break;
      case "title":
        emitHermesEvent("hermes:session-title", { session_id: sessionId, title: e.data.title });
        document.title = `${e.data.title} · Hermes Console`;
        break;
    }
    if (change === "end") {
      setClarify(null);
      announceEnded(run);
      refreshPending();
    }
    finishSegments(run);
    rerender();
    prose.current.schedule();
  }

  /** Tell the composer and the sidebar that this run is over. */
  function announceEnded(run: LiveRun) {
    const ids = { session_id: sessionId, stream_id: run.streamId };
    emitHermesEvent("hermes:run-state", { ...ids, active: false });
    emitHermesEvent("hermes:chat-ended", { ...ids, reason: endReason(run) });
  }

  /** The stream is over or unreachable: show the turn as the server stored it. */
  async function reloadSettled(run: LiveRun, lostError: string | null) {
    try {
      const { session } = await api<SessionAnswer>(
        "GET",
        `/api/session?session_id=${encodeURIComponent(sessionId)}&msg_limit=200`,
      );
      const still = session.active_stream_id === run.streamId;
      if (still && lostError) {
        setConn({ state: "lost", run, error: lostError });
        return;
      }
      const mine = run.turn.turnId
        ? session.messages.filter((m) => m.turn_id === run.turn.turnId)
        : [];
      const [turn] = foldMessages(mine, session.tool_calls ?? []);
      if (turn) {
        await renderSegmentsHtml(turn.segments);
        run.turn = { ...turn, key: run.turn.key, notices: run.turn.notices };
      }
      if (!run.ended) {
        run.ended = true;
        if (run.phase === "running") run.phase = "done";
        announceEnded(run);
      }
      setConn(null);
      rerender();
    } catch (err) {
      setConn({ state: "lost", run, error: lostError ?? String((err as Error)?.message ?? err) });
    }
  }

  function follow(run: LiveRun) {
    setConn(null);
    emitHermesEvent("hermes:run-state", {
      session_id: sessionId,
      stream_id: run.streamId,
      active: true,
    });
    const f = followStream({
      streamId: run.streamId,
      afterSeq: run.seq,
      onEvent: (e) => onEvent(run, e),
      onState: (s) => setConn(s === "reconnecting" ? { state: "reconnecting" } : null),
    });
    follows.current.add(f);
    f.done.then((outcome: FollowOutcome) => {
      follows.current.delete(f);
      if (outcome.kind === "ended" || outcome.kind === "closed") return setConn(null);
      reloadSettled(run, outcome.kind === "lost" ? outcome.error : null);
    });
  }

  // Resume the run the server found in progress; follow runs the composer starts here.
  useEffect(() => {
    const live = runs.current[0];
    if (live && !live.ended) follow(live);
    else if (live) finishSegments(live);
    const offStart = onHermesEvent("hermes:chat-started", (d, ev) => {
      if (d.session_id !== sessionId || (d.kind && d.kind !== "chat")) return;
      ev.preventDefault();
      const run = createLiveRun({
        sessionId,
        streamId: d.stream_id,
        turnId: d.turn_id,
        user: { idx: null, text: d.message, attachments: [] },
      });
      runs.current.push(run);
      document.querySelector(".empty-state")?.remove();
      rerender();
      requestAnimationFrame(scrollToEnd);
      follow(run);
    });
    const offSkip = onHermesEvent("hermes:skip-approvals", (d) => {
      if (d.session_id === sessionId) setSkip(d.enabled);
    });
    const offCopy = installCodeCopy();
    return () => {
      offStart();
      offSkip();
      offCopy();
      for (const f of follows.current) f.close();
    };
  }, []);

  // Older turns: loaded above the history as the reader nears its top.
  useEffect(() => {
    const marker = document.getElementById("transcript-older");
    if (!marker) return;
    let before = Number(marker.dataset.before);
    let busy = false;
    const load = async () => {
      if (busy || !marker.isConnected) return;
      busy = true;
      marker.dataset.state = "loading";
      try {
        let records: ToolCallRecord[] = [];
        const page = await alignedPage(
          async (b, limit) => {
            const { session } = await api<SessionAnswer>(
              "GET",
              `/api/session?session_id=${encodeURIComponent(sessionId)}&msg_limit=${limit}` +
                (b === undefined ? "" : `&msg_before=${b}`),
            );
            records = session.tool_calls ?? [];
            return session.messages;
          },
          before,
          OLDER_ROWS,
        );
        const turns = foldMessages(page.messages, records);
        await renderSegmentsHtml(turns.flatMap((t) => t.segments));
        const container = document.createElement("div");
        container.className = "turns-page";
        marker.after(container);
        render(
          <>{turns.map((t) => <TurnView key={t.key} sessionId={sessionId} turn={t} />)}</>,
          container,
        );
        before = page.offset;
        delete marker.dataset.state;
        if (before <= 0) {
          io.disconnect();
          marker.remove();
        } else {
          marker.dataset.before = String(before);
          // Still in view (a short page): observe afresh so the next page follows.
          io.unobserve(marker);
          io.observe(marker);
        }
      } catch {
        marker.dataset.state = "error";
      } finally {
        busy = false;
      }
    };
    const io = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && load(),
      { root: scroller(), rootMargin: "600px 0px 0px 0px" },
    );
    io.observe(marker);
    const button = marker.querySelector("button");
    button?.addEventListener("click", load);
    return () => {
      io.disconnect();
      button?.removeEventListener("click", load);
    };
  }, []);

  const last = runs.current[runs.current.length - 1];
  return (
    <div class="turns turns-live" data-session-id={sessionId}>
      {runs.current.map((run) => {
        const running = !run.ended;
        const compression = running || run.phase === "error" ? run.compression : null;
        return (
          <TurnView
            key={run.streamId}
            sessionId={sessionId}
            turn={run.turn}
            live={running}
            compression={compression}
            renderSegment={(seg) => (
              <LiveSegment
                key={seg.key}
                seg={seg}
                sinkKey={sinkKey(run, seg)}
                prose={prose.current}
                streaming={running}
              />
            )}
          >
            {running && run.retrying
              ? <p class="turn-status" role="status">{run.retrying}</p>
              : null}
            {running && run === last && conn?.state === "reconnecting"
              ? <p class="turn-status" role="status">Connection dropped — reconnecting…</p>
              : null}
            {running && !run.turn.tools.some((t) => IN_FLIGHT.has(t.status))
              ? (
                <p class="turn-pending" role="status" aria-label="Working">
                  <span class="spinner" />
                </p>
              )
              : null}
          </TurnView>
        );
      })}
      {conn?.state === "lost"
        ? (
          <div class="turn-notice" data-kind="error" role="alert">
            <span class="turn-notice-title">Connection lost</span>
            <span class="turn-notice-message">
              The answer may still be running on the server. {conn.error}.
            </span>
            <button
              type="button"
              class="btn btn-quiet turn-notice-action"
              onClick={() => follow(conn.run)}
            >
              Reconnect
            </button>
          </div>
        )
        : null}
      {clarify
        ? (
          <ClarifyCard
            key={clarify.clarify_id}
            sessionId={sessionId}
            clarify={clarify}
            onSettled={() => setClarify(null)}
          />
        )
        : null}
      {approval.pending
        ? (
          <ApprovalCard
            key={approval.pending.approval_id}
            sessionId={sessionId}
            approval={approval.pending}
            pendingCount={Math.max(1, approval.pending_count)}
            onSettled={(left) => {
              setApproval({ pending: null, pending_count: left ?? 0 });
              if (left === null || left > 0) refreshPending();
            }}
          />
        )
        : null}
      {skip
        ? (
          <p class="yolo-note" role="status">
            Approvals are skipped in this chat (<code>/yolo</code>) — risky commands run without
            asking.
          </p>
        )
        : null}
    </div>
  );
}
