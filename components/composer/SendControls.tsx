// The composer footer's right side: the live hint (a flash, "Uploading…" or the send keys),
// Stop while an answer runs, and Send (or Queue, while it runs). Rendered inside the Composer
// island; the model decides what each shows.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";

export function SendControls({ model: m }: { model: ComposerModel }) {
  const run = m.run.value;
  const sending = m.sending.value;
  const keyLabel = m.keyLabel.value;
  const flash = m.flash.value;
  return (
    <>
      <span class="composer-hint" role="status" aria-live="polite">
        {flash
          ? <span class="composer-flash">{flash}</span>
          : m.uploading.value
          ? <span class="composer-keys">Uploading…</span>
          : <span class="composer-keys">{m.hint.value}</span>}
      </span>
      {run
        ? (
          <button
            type="button"
            class="btn-stop"
            data-action="stop"
            aria-label="Stop the answer"
            title="Stop"
            onClick={() => m.stop()}
          >
            <Icon name="square" size={14} />
          </button>
        )
        : null}
      {!run || m.hasContent.value
        ? (
          <button
            type="submit"
            class="btn-send"
            disabled={!m.canSend.value || (!!run && !!m.queued.value)}
            aria-label={sending ? "Sending" : run ? "Queue message" : "Send message"}
            title={run
              ? `Queue (${keyLabel}): sent when the answer finishes`
              : `Send (${keyLabel})`}
          >
            <Icon name="arrowUp" size={16} />
          </button>
        )
        : null}
    </>
  );
}
