// The quiet action rows of a settled turn. On the answer: Copy (its markdown), Regenerate (the
// old answer stays a variant; the ‹ n/m › switcher is filled in by the browser for the last
// turn), Fork from here, and the time plus tokens and cost of the turn. On the user message:
// Copy and Edit & resend. Every control is a real button, so focus shows what hover shows.
// Behaviour: lib/browser/message_actions.ts (one delegated listener); rendered by TurnView.
import type { TurnModel } from "../../lib/shared/transcript_model.ts";
import { Icon } from "../Icon.tsx";

interface Props {
  turn: TurnModel;
}

function target(turn: TurnModel) {
  return {
    "data-turn-id": turn.turnId ?? undefined,
    "data-user-idx": turn.user?.idx ?? undefined,
  };
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
      <button type="button" class="msg-action" data-action="copy-answer" title="Copy as markdown">
        <Icon name="file" size={13} />
        <span>Copy</span>
      </button>
      <button
        type="button"
        class="msg-action"
        data-action="regenerate"
        title="Regenerate: the current answer stays one click away"
      >
        <Icon name="refresh" size={13} />
        <span>Regenerate</span>
      </button>
      <button
        type="button"
        class="msg-action"
        data-action="fork"
        title="Fork: a new chat holding the conversation up to here"
      >
        <Icon name="gitBranch" size={13} />
        <span>Fork</span>
      </button>
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
      <button type="button" class="msg-action" data-action="copy-user" title="Copy">
        <Icon name="file" size={13} />
        <span>Copy</span>
      </button>
      <button
        type="button"
        class="msg-action"
        data-action="edit-user"
        title="Edit & resend: later messages are replaced"
      >
        <Icon name="edit" size={13} />
        <span>Edit</span>
      </button>
      <button type="button" class="msg-action msg-meta" data-action="meta" aria-label="Sent at">
        <span class="msg-meta-text" aria-live="polite" />
      </button>
    </div>
  );
}
