// Browser-safe: imports nothing from Deno or the database.
// The live transcript's state as a @preact/signals model: the runs started or resumed on this
// page (each folded from its stream, lib/shared/transcript_live.ts), the approval and clarify
// the session waits on, the connection's state and the /yolo note. The Transcript island only
// renders it. Invariants: streamed prose is written by LiveProse, never by a re-render; a run's
// end is announced once (`hermes:run-state` inactive + `hermes:chat-ended`); a stream that is
// lost or over shows the turn as the server stored it.
import { signal } from "@preact/signals";
import { api as browserApi } from "./api_client.ts";
import type { ApprovalEventData, SequencedEvent } from "../shared/chat_events.ts";
import { emitHermesEvent, onHermesEvent } from "../shared/ui_events.ts";
import {
  type Follow,
  type FollowOptions,
  type FollowOutcome,
  followStream,
} from "./stream_client.ts";
import {
  applyEvent,
  type ClarifyRequest,
  createLiveRun,
  type LiveRun,
} from "../shared/transcript_live.ts";
import { foldMessages } from "../shared/transcript_fold.ts";
import {
  attachmentNames,
  type Segment,
  type ToolCallRecord,
  type TranscriptMessage,
} from "../shared/transcript_turns.ts";
import { attachmentViews } from "../shared/attachment_views.ts";
import { orderTurn } from "../shared/transcript_order.ts";
import { LiveProse, renderSegmentsHtml } from "./live_prose.ts";
import { t } from "../i18n/t.ts";

export interface LiveTranscriptInit {
  sessionId: string;
  /** The run in progress, folded from its journal by the server (segments with html). */
  live: LiveRun | null;
  approval: PendingApproval;
  clarify: ClarifyRequest | null;
  skipApprovals: boolean;
}

export interface PendingApproval {
  pending: ApprovalEventData | null;
  pending_count: number;
}

export type Connection =
  | { state: "reconnecting" }
  | { state: "lost"; run: LiveRun; error: string }
  | null;

/** GET /api/session's answer (the fields the transcript reads). */
export interface SessionAnswer {
  session: {
    messages: TranscriptMessage[];
    tool_calls?: ToolCallRecord[];
    active_stream_id?: string | null;
    _messages_offset?: number;
  };
}

export interface LiveTranscriptDeps {
  api: typeof browserApi;
  follow: typeof followStream;
  frame(cb: () => void): number;
  setTitle(title: string): void;
  /** A run the composer started here was added (the view removes the empty state, scrolls). */
  runAdded(): void;
  /** Whether the server is there when a stream breaks (lib/browser/connection_status.ts). */
  serverTrouble?: FollowOptions["serverTrouble"];
}

const browserDeps: LiveTranscriptDeps = {
  api: browserApi,
  follow: followStream,
  frame: (cb) => requestAnimationFrame(cb),
  setTitle: (title) => void (document.title = title),
  runAdded: () => {},
  serverTrouble: (what, signal) =>
    import("./connection_status.ts").then((m) => m.serverTrouble(what, signal)),
};

/** The LiveProse sink of a run's segment. */
export const sinkKey = (run: LiveRun, seg: Segment) => `${run.streamId}:${seg.key}`;

function endReason(run: LiveRun): "done" | "cancel" | "error" {
  return run.phase === "cancelled" ? "cancel" : run.phase === "error" ? "error" : "done";
}

export type LiveTranscript = ReturnType<typeof createLiveTranscript>;

export function createLiveTranscript(
  init: LiveTranscriptInit,
  overrides: Partial<LiveTranscriptDeps> = {},
) {
  const deps: LiveTranscriptDeps = { ...browserDeps, ...overrides };
  const { sessionId } = init;
  /** Runs in page order; grown in place (`version` tells the view to render them again). */
  const runs: LiveRun[] = init.live ? [init.live] : [];
  const version = signal(0);
  const approval = signal<PendingApproval>(init.approval);
  const clarify = signal<ClarifyRequest | null>(init.clarify);
  const conn = signal<Connection>(null);
  const skip = signal(init.skipApprovals);
  const prose = new LiveProse();
  const follows = new Set<Follow>();
  let frame = 0;

  const rerender = () => version.value++;
  /** Re-render at the next frame (reasoning grows token by token). */
  const rerenderSoon = () => {
    frame ||= deps.frame(() => {
      frame = 0;
      rerender();
    });
  };

  async function refreshPending() {
    try {
      const p = await deps.api<PendingApproval>(
        "GET",
        `/api/approval/pending?session_id=${encodeURIComponent(sessionId)}`,
      );
      approval.value = { pending: p.pending, pending_count: p.pending_count };
    } catch { /* the next approval event brings the queue again */ }
  }

  /** The approval card settled; `left` is how many still wait (null: unknown). */
  function approvalSettled(left: number | null) {
    approval.value = { pending: null, pending_count: left ?? 0 };
    if (left === null || left > 0) refreshPending();
  }

  /** Settle every segment of `run` the model has moved past (all of them once it ended). */
  function finishSegments(run: LiveRun) {
    const segs = run.turn.segments;
    const upto = run.ended ? segs.length : segs.length - 1;
    for (let i = 0; i < upto; i++) prose.finish(sinkKey(run, segs[i]));
  }

  /** Tell the composer, the sidebar and the announcer that this run is over. */
  function announceEnded(run: LiveRun) {
    const ids = { session_id: sessionId, stream_id: run.streamId };
    const answer = run.turn.segments.filter((s) => s.text.trim()).at(-1)?.text ?? "";
    const failed = run.turn.notices.filter((n) => n.kind === "error").at(-1);
    emitHermesEvent("hermes:run-state", { ...ids, active: false });
    emitHermesEvent("hermes:chat-ended", {
      ...ids,
      reason: endReason(run),
      answer,
      error: failed ? `${failed.title}. ${failed.message}` : undefined,
    });
  }

  function onEvent(run: LiveRun, e: SequencedEvent) {
    const change = applyEvent(run, e);
    if (change === "none") return;
    if (change === "text") return prose.schedule();
    if (change === "thinking") return rerenderSoon();
    switch (e.event) {
      case "approval":
        approval.value = { pending: e.data, pending_count: Math.max(1, e.data.pending_count) };
        emitHermesEvent("hermes:announce", { text: t("a11y_sr.needsApproval"), urgent: true });
        break;
      case "approval_resolved":
        if (e.data.pending_count > 0) refreshPending();
        else approval.value = { pending: null, pending_count: 0 };
        break;
      case "clarify":
        clarify.value = e.data;
        break;
      case "tool_complete":
        if (!run.clarify && e.data.name === "clarify") clarify.value = null;
        break;
      case "title":
        emitHermesEvent("hermes:session-title", { session_id: sessionId, title: e.data.title });
        deps.setTitle(`${e.data.title} · ${t("common.appName")}`);
        break;
    }
    if (change === "end") {
      clarify.value = null;
      announceEnded(run);
      refreshPending();
    }
    finishSegments(run);
    // What the turn shows once its parts settle, as a reload shows it (loaded on first use).
    void import("./settling_turn.ts").then((m) =>
      m.settleTurn(run, {
        api: deps.api,
        order: orderTurn,
        render: renderSegmentsHtml,
        changed: rerender,
      })
    );
    rerender();
    prose.schedule();
  }

  /** The stream is over or unreachable: show the turn as the server stored it. */
  async function reloadSettled(run: LiveRun, lostError: string | null) {
    try {
      const { session } = await deps.api<SessionAnswer>(
        "GET",
        `/api/session?session_id=${encodeURIComponent(sessionId)}&msg_limit=200`,
      );
      const still = session.active_stream_id === run.streamId;
      if (still && lostError) {
        conn.value = { state: "lost", run, error: lostError };
        return;
      }
      const mine = run.turn.turnId
        ? session.messages.filter((m) => m.turn_id === run.turn.turnId)
        : [];
      const [turn] = foldMessages(mine, session.tool_calls ?? []);
      if (turn) {
        await renderSegmentsHtml(turn.segments);
        run.turn = {
          ...turn,
          key: run.turn.key,
          notices: run.turn.notices,
          changedFiles: run.turn.changedFiles,
        };
      }
      if (!run.ended) {
        run.ended = true;
        if (run.phase === "running") run.phase = "done";
        announceEnded(run);
      }
      conn.value = null;
      rerender();
    } catch (err) {
      conn.value = {
        state: "lost",
        run,
        error: lostError ?? String((err as Error)?.message ?? err),
      };
    }
  }

  /** Follow `run`'s stream from its last applied seq (also the Reconnect button). */
  function follow(run: LiveRun) {
    conn.value = null;
    emitHermesEvent("hermes:run-state", {
      session_id: sessionId,
      stream_id: run.streamId,
      active: true,
    });
    const f = deps.follow({
      streamId: run.streamId,
      afterSeq: run.seq,
      onEvent: (e) => onEvent(run, e),
      onState: (s) => conn.value = s === "reconnecting" ? { state: "reconnecting" } : null,
      serverTrouble: deps.serverTrouble,
    });
    follows.add(f);
    f.done.then((outcome: FollowOutcome) => {
      follows.delete(f);
      if (outcome.kind === "ended" || outcome.kind === "closed") return conn.value = null;
      reloadSettled(run, outcome.kind === "lost" ? outcome.error : null);
    });
  }

  /**
   * Start (once, after mount): resume the run the server found in progress, follow runs the
   * composer starts here, follow the /yolo switch. Returns the function that stops all of it.
   */
  function connect(): () => void {
    const live = runs[0];
    if (live && !live.ended) follow(live);
    else if (live) finishSegments(live);
    const offStart = onHermesEvent("hermes:chat-started", (d, ev) => {
      if (d.session_id !== sessionId || (d.kind && d.kind !== "chat")) return;
      ev.preventDefault();
      const run = createLiveRun({
        sessionId,
        streamId: d.stream_id,
        turnId: d.turn_id,
        user: {
          idx: null,
          text: d.message,
          attachments: attachmentNames(d.attachments),
        },
      });
      run.turn.userFiles = attachmentViews(d.attachments);
      runs.push(run);
      rerender();
      deps.runAdded();
      follow(run);
    });
    // A standing goal's next turn, started by the server itself (lib/browser/goal_chip.ts).
    const offFound = onHermesEvent("hermes:run-discovered", (d) => {
      if (d.session_id !== sessionId || runs.some((r) => r.streamId === d.stream_id)) return;
      const run = createLiveRun({ sessionId, streamId: d.stream_id, turnId: null, user: null });
      runs.push(run);
      rerender();
      deps.runAdded();
      follow(run);
    });
    const offSkip = onHermesEvent("hermes:skip-approvals", (d) => {
      if (d.session_id === sessionId) skip.value = d.enabled;
    });
    return () => {
      offStart();
      offFound();
      offSkip();
      for (const f of follows) f.close();
    };
  }

  return {
    sessionId,
    runs,
    version,
    approval,
    clarify,
    conn,
    skip,
    prose,
    connect,
    follow,
    approvalSettled,
  };
}
