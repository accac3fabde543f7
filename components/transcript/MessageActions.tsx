// The quiet action rows of a settled turn. On the answer: Copy (its markdown), Regenerate (the
// old answer stays a variant; the ‹ n/m › switcher is filled in by the browser for the last
// turn), Fork from here, and the time plus tokens and cost of the turn. On the user message:
// Copy and Edit & resend. Every control is a real button, so focus shows what hover shows.
// Behaviour: lib/browser/message_actions.ts (one delegated listener); rendered by TurnView.
import type { TurnModel } from "../../lib/shared/transcript_model.ts";
import { Icon, type IconName } from "../Icon.tsx";

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
      aria-label="Answer actions"
      {...target(turn)}
    >
      <span class="msg-variants" data-variants="" hidden />
      <ActionButton action="copy-answer" icon="file" label="Copy" title="Copy as markdown" />
      <ActionButton
        action="regenerate"
        icon="refresh"
        label="Regenerate"
        title="Regenerate: the current answer stays one click away"
      />
      <ActionButton
        action="fork"
        icon="gitBranch"
        label="Fork"
        title="Fork: a new chat holding the conversation up to here"
      />
      <button
        type="button"
        class="msg-action msg-meta"
        data-action="meta"
        aria-label="Time and usage"
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
      aria-label="Message actions"
      {...target(turn)}
    >
      <ActionButton action="copy-user" icon="file" label="Copy" title="Copy" />
      <ActionButton
        action="edit-user"
        icon="edit"
        label="Edit"
        title="Edit & resend: later messages are replaced"
      />
      <button type="button" class="msg-action msg-meta" data-action="meta" aria-label="Sent at">
        <span class="msg-meta-text" aria-live="polite" />
      </button>
    </div>
  );
}
