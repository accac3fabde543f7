// What the live transcript shows under its turns: a lost connection (with Reconnect), the
// question the agent asks (clarify), the approval the session waits on, and the /yolo note.
// Rendered inside the Transcript island; the model decides what shows.
import type { LiveTranscript } from "../../lib/browser/live_transcript.ts";
import { ApprovalCard } from "../ApprovalCard.tsx";
import { ClarifyCard } from "../ClarifyCard.tsx";
import { ApprovalPill } from "./ApprovalPill.tsx";

export function LiveNotices({ transcript: t }: { transcript: LiveTranscript }) {
  const conn = t.conn.value;
  const clarify = t.clarify.value;
  const approval = t.approval.value;
  return (
    <>
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
              onClick={() => t.follow(conn.run)}
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
            sessionId={t.sessionId}
            clarify={clarify}
            onSettled={() => t.clarify.value = null}
          />
        )
        : null}
      {approval.pending
        ? (
          <ApprovalCard
            key={approval.pending.approval_id}
            sessionId={t.sessionId}
            approval={approval.pending}
            pendingCount={Math.max(1, approval.pending_count)}
            onSettled={t.approvalSettled}
          />
        )
        : null}
      {approval.pending ? <ApprovalPill approvalId={approval.pending.approval_id} /> : null}
      {t.skip.value
        ? (
          <p class="yolo-note" role="status">
            Approvals are skipped in this chat (<code>/yolo</code>) — risky commands run without
            asking.
          </p>
        )
        : null}
    </>
  );
}
