// The quiet action rows of a settled turn. On the answer: Copy (its markdown), Read aloud,
// Regenerate (the old answer stays a variant; the ‹ n/m › switcher is filled in by the browser
// for the last turn), Fork from here, and the time plus tokens and cost of the turn. On the user
// message: Copy and Edit & resend. Every control is a real button, so focus shows what hover
// shows.
// Behaviour: lib/browser/message_actions.ts (one delegated listener); rendered by TurnView.
import type { TurnModel } from "../../lib/shared/transcript_model.ts";
import { Icon, type IconName } from "../Icon.tsx";
import { t } from "../../lib/i18n/t.ts";

interface Props {
  turn: TurnModel;
}

function target(turn: TurnModel) {
  return {
    "data-turn-id": turn.turnId ?? undefined,
    "data-user-idx": turn.user?.idx ?? undefined,
  };
}

/** One quiet labelled button; the delegated listener finds it by data-action. */
function ActionButton(
  { action, icon, label, title }: { action: string; icon: IconName; label: string; title: string },
) {
  return (
    <button type="button" class="msg-action" data-action={action} title={title}>
      <Icon name={icon} size={13} />
      <span>{label}</span>
    </button>
  );
}

export function AnswerActions({ turn }: Props) {
  return (
    <div
      class="msg-actions msg-actions-answer"
      role="group"
      aria-label={t("transcript.answerActions")}
      {...target(turn)}
    >
      <span class="msg-variants" data-variants="" hidden />
      <ActionButton
        action="copy-answer"
        icon="file"
        label={t("common.copy")}
        title={t("transcript.copyMarkdown")}
      />
      <ActionButton
        action="read-aloud"
        icon="volume"
        label={t("voice.readAloud")}
        title={t("voice.readAloudTitle")}
      />
      <ActionButton
        action="regenerate"
        icon="refresh"
        label={t("transcript.regenerate")}
        title={t("transcript.regenerateTitle")}
      />
      <ActionButton
        action="fork"
        icon="gitBranch"
        label={t("transcript.fork")}
        title={t("transcript.forkTitle")}
      />
      <button
        type="button"
        class="msg-action msg-meta"
        data-action="meta"
        aria-label={t("transcript.timeAndUsage")}
      >
        <Icon name="question" size={13} />
        <span class="msg-meta-text" aria-live="polite" />
      </button>
    </div>
  );
}

export function UserActions({ turn }: Props) {
  return (
    <div
      class="msg-actions msg-actions-user"
      role="group"
      aria-label={t("transcript.messageActions")}
      {...target(turn)}
    >
      <ActionButton
        action="copy-user"
        icon="file"
        label={t("common.copy")}
        title={t("common.copy")}
      />
      <ActionButton
        action="edit-user"
        icon="edit"
        label={t("common.edit")}
        title={t("transcript.editTitle")}
      />
      <button
        type="button"
        class="msg-action msg-meta"
        data-action="meta"
        aria-label={t("transcript.sentAt")}
      >
        <span class="msg-meta-text" aria-live="polite" />
      </button>
    </div>
  );
}
