// The message queued while an answer runs: its text (or file count), when it will go, and a
// button that takes it back into the draft to edit. Rendered inside the Composer island.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";

export function QueuedMessage({ model: m }: { model: ComposerModel }) {
  const queued = m.queued.value;
  if (!queued) return null;
  return (
    <div class="composer-queued" data-queued="">
      <span class="queued-label">Queued</span>
      <span class="queued-text">
        {queued.text || `${queued.attachments.length} file(s)`}
      </span>
      <span class="queued-when">sends when the answer finishes</span>
      <button
        type="button"
        class="attachment-remove"
        aria-label="Take the queued message back"
        title="Take it back to edit"
        onClick={() => m.takeBackQueued()}
      >
        <Icon name="x" size={12} />
      </button>
    </div>
  );
}
