// The live part of a conversation: runs started or resumed on this page, streamed as they go
// (prose per animation frame, never a whole-message re-render), the approval and clarify
// cards the session waits on, and the loader of older turns above the server-rendered
// history. Survives dropped connections (lib/browser/stream_client.ts), reloads mid-answer (the
// server folds the journal so far; the stream resumes after it) and chat switches.
// Talks to the composer and sidebar only through `hermes:*` events (lib/shared/ui_events.ts).
// The state lives in lib/browser/live_transcript.ts; this island renders it.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ApprovalEventData } from "../lib/shared/chat_events.ts";
import type { ClarifyRequest, LiveRun } from "../lib/shared/transcript_live.ts";
import { createLiveTranscript } from "../lib/browser/live_transcript.ts";
import { installCodeCopy } from "../lib/browser/code_copy.ts";
import { installMermaid } from "../lib/browser/mermaid_watch.ts";
import { installAnswerVariants } from "../lib/browser/answer_variants.ts";
import { onHermesEvent } from "../lib/shared/ui_events.ts";
import { watchOlderTurns } from "../lib/browser/older_turns.ts";
import { TurnView } from "../components/TurnView.tsx";
import { LiveTurn } from "../components/transcript/LiveTurn.tsx";
import { LiveNotices } from "../components/transcript/LiveNotices.tsx";

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

function scroller(): HTMLElement | null {
  return document.querySelector<HTMLElement>(".transcript");
}

/** Show the newest content (the transcript scrolls in reverse: its start is the bottom). */
function scrollToEnd(): void {
  const s = scroller();
  if (s) s.scrollTop = s.scrollHeight;
}

export default function Transcript(props: TranscriptProps) {
  const { sessionId } = props;
  const [t] = useState(() =>
    createLiveTranscript(props, {
      runAdded: () => {
        document.querySelector(".empty-state")?.remove();
        // A new turn follows: an earlier interrupted one can no longer be retried.
        for (const b of document.querySelectorAll("#transcript-history [data-retry-turn]")) {
          b.remove();
        }
        // Not following new output: jump_latest.ts places the new turn once, by itself.
        if (!document.documentElement.hasAttribute("data-no-auto-follow")) {
          requestAnimationFrame(scrollToEnd);
        }
      },
    })
  );

  useEffect(() => {
    const disconnect = t.connect();
    const offCopy = installCodeCopy();
    const offMermaid = installMermaid();
    // The answer's ‹ n/m › switcher is there from the start; what the action buttons do loads
    // on the reader's first interaction (a pointer, a tap, focus, a key): nothing a reader who
    // only reads needs. The interaction that loads it is handed over and acted on once it is in,
    // so a quick first click (Edit right after a reload) is never lost.
    const offVariants = installAnswerVariants(sessionId);
    let offActions = () => {};
    let gone = false;
    let first: Event | undefined;
    const WAKE = ["pointerover", "pointerdown", "focusin", "click", "keydown"] as const;
    const wake = (e: Event) => {
      if (e.type === "click" || !first) first = e;
      if (loading) return;
      loading = import("../lib/browser/message_actions.ts").then((mod) => {
        for (const type of WAKE) document.removeEventListener(type, wake, true);
        if (!gone) offActions = mod.installMessageActions(sessionId, first);
      });
    };
    let loading: Promise<void> | undefined;
    for (const type of WAKE) document.addEventListener(type, wake, true);
    // What screen readers are told of runs ending, approvals, queued messages (a live region):
    // the words load with the first thing to say (imports resolve in call order: none reorder).
    const announcer = () => import("../lib/browser/announcer.ts");
    const offAnnounce = [
      onHermesEvent(
        "hermes:announce",
        ({ text, urgent }) => void announcer().then((m) => !gone && m.announce(text, urgent)),
      ),
      onHermesEvent(
        "hermes:chat-ended",
        (d) => void announcer().then((m) => !gone && m.announceChatEnded(sessionId, d)),
      ),
    ];
    // Older turns: loaded above the history as the reader nears its top.
    const offOlder = watchOlderTurns(sessionId, scroller(), (turns, container) =>
      render(
        <>{turns.map((turn) => <TurnView key={turn.key} sessionId={sessionId} turn={turn} />)}</>,
        container,
      ));
    return () => (
      gone = true,
        WAKE.forEach((type) => document.removeEventListener(type, wake, true)),
        offVariants(),
        disconnect(),
        offCopy(),
        offMermaid(),
        offActions(),
        offAnnounce.forEach((off) => off()),
        offOlder()
    );
  }, []);

  t.version.value; // Runs grow in place: render them again whenever the model says so.
  const reconnecting = t.conn.value?.state === "reconnecting";
  return (
    <div class="turns turns-live" data-session-id={sessionId}>
      {t.runs.map((run, i) => (
        <LiveTurn
          key={run.streamId}
          sessionId={sessionId}
          prose={t.prose}
          run={run}
          reconnecting={reconnecting && i === t.runs.length - 1}
          last={i === t.runs.length - 1}
        />
      ))}
      <LiveNotices transcript={t} />
    </div>
  );
}
