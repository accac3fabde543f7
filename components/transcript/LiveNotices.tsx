// What the live transcript shows under its turns: a lost connection (with Reconnect), the
// question the agent asks (clarify), the approval the session waits on, and the /yolo note.
// Rendered inside the Transcript island; the model decides what shows.
import type { LiveTranscript } from "../../lib/browser/live_transcript.ts";
import { ApprovalCard } from "../ApprovalCard.tsx";
import type { ClarifyCardProps } from "../ClarifyCard.tsx";
import { ApprovalPill } from "./ApprovalPill.tsx";
import { t } from "../../lib/i18n/t.ts";
import { useEffect, useState } from "preact/hooks";

type ClarifyView = typeof import("../ClarifyCard.tsx").ClarifyCard;
let clarifyView: ClarifyView | undefined;

/**
 * The clarify card loads with the first question a page shows (as the approval card does):
 * a chat where the agent never asks ships none of it before interaction (the 60 KB budget).
 */
function ClarifyCard(props: ClarifyCardProps) {
  const [View, setView] = useState<ClarifyView | undefined>(() => clarifyView);
  useEffect(() => {
    if (View) return;
    import("../ClarifyCard.tsx").then(
      (m) => setView(() => clarifyView = m.ClarifyCard),
      () => {}, // the next question tries again
    );
  }, []);
  return View ? <View {...props} /> : null;
}

export function LiveNotices({ transcript: live }: { transcript: LiveTranscript }) {
  const conn = live.conn.value;
  const clarify = live.clarify.value;
  const approval = live.approval.value;
  // The /yolo command is code inside the sentence: split the message where it goes.
  const [yoloBefore, yoloAfter] = t("approvals.yoloNote", { command: "\u0001" }).split("\u0001");
  return (
    <>
      {conn?.state === "lost"
        ? (
          <div class="turn-notice" data-kind="error" role="alert">
            <span class="turn-notice-title">{t("transcript.connectionLost")}</span>
            <span class="turn-notice-message">
              {t("transcript.connectionLostMessage", { error: conn.error })}
            </span>
            <button
              type="button"
              class="btn btn-quiet turn-notice-action"
              onClick={() => live.follow(conn.run)}
            >
              {t("transcript.reconnect")}
            </button>
          </div>
        )
        : null}
      {clarify
        ? (
          <ClarifyCard
            key={clarify.clarify_id}
            sessionId={live.sessionId}
            clarify={clarify}
            onSettled={() => live.clarify.value = null}
          />
        )
        : null}
      {approval.pending
        ? (
          <ApprovalCard
            key={approval.pending.approval_id}
            sessionId={live.sessionId}
            approval={approval.pending}
            pendingCount={Math.max(1, approval.pending_count)}
            onSettled={live.approvalSettled}
          />
        )
        : null}
      {approval.pending ? <ApprovalPill approvalId={approval.pending.approval_id} /> : null}
      {live.skip.value
        ? (
          <p class="yolo-note" role="status">
            {/* One run of text beside the dot: as flex items its parts would wrap as columns. */}
            <span class="yolo-note-text">
              {yoloBefore}
              {/* i18n-ignore: the slash command, typed as is */}
              <code>/yolo</code>
              {yoloAfter}
            </span>
          </p>
        )
        : null}
    </>
  );
}
