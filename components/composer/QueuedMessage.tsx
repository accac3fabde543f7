// The messages waiting while an answer runs (several may wait, sent one per finished answer in
// order): each with its text (or file count), an Edit button that takes it back into the draft
// and a Remove button. Rendered inside the Composer island.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";

export function QueuedMessage({ model: m }: { model: ComposerModel }) {
  const list = m.modes.all.value;
  if (!list.length) return null;
  return (
    <ol class="composer-queue" aria-label="Queued messages">
      {list.map((q, i) => (
        <li class="composer-queued" data-queued="" key={i}>
          <span class="queued-label">{i === 0 ? "Queued" : `${i + 1}.`}</span>
          <span class="queued-text">{q.text || `${q.attachments.length} file(s)`}</span>
          {i === 0 ? <span class="queued-when">sends when the answer finishes</span> : null}
          <button
            type="button"
            class="queued-edit"
            data-action="edit-queued"
            aria-label={`Edit queued message ${i + 1}`}
            title="Take it back to edit"
            onClick={() => m.takeBackAt(i)}
          >
            Edit
          </button>
          <button
            type="button"
            class="attachment-remove"
            data-action="remove-queued"
            aria-label={`Remove queued message ${i + 1}`}
            title="Remove"
            onClick={() => m.removeQueued(i)}
          >
            <Icon name="x" size={12} />
          </button>
        </li>
      ))}
    </ol>
  );
}
