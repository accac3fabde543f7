// A notice that must stay visible under a turn: a failure, a stop, a lasting warning, with its
// hint. A turn the server restart interrupted offers Retry when it is the conversation's last
// (POST /api/session/retry {run: true} runs the last user message again;
// lib/browser/message_actions.ts handles the click, as it does Regenerate).
import type { Notice } from "../../lib/shared/transcript_turns.ts";
import { NoticeHint } from "./NoticeHint.tsx";
import { t } from "../../lib/i18n/t.ts";

export interface TurnNoticeProps {
  notice: Notice;
  /** The turn is the conversation's last: Retry would run its message again. */
  last: boolean;
}

export function TurnNotice({ notice: n, last }: TurnNoticeProps) {
  return (
    <div class="turn-notice" data-kind={n.kind}>
      <span class="turn-notice-title">{n.title}</span>
      <span class="turn-notice-message">{n.message}</span>
      {n.retry && last
        ? (
          <button type="button" class="btn btn-quiet turn-notice-action" data-retry-turn>
            {t("common.retry")}
          </button>
        )
        : null}
      {n.hint || n.link ? <NoticeHint hint={n.hint} link={n.link} /> : null}
    </div>
  );
}
