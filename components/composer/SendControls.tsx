// The composer footer's right side: the live hint (a flash, "Uploading…" or the send keys),
// Stop while an answer runs, and Send (while it runs: the mode picker, and Send named after
// the mode: Queue, Steer or Interrupt). Rendered inside the Composer
// island; the model decides what each shows.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";
import { SendModePicker } from "./SendModePicker.tsx";
import { MODE_HINT, MODE_LABEL } from "../../lib/browser/composer/message_mode.ts";

export function SendControls({ model: m }: { model: ComposerModel }) {
  const run = m.run.value;
  const sending = m.sending.value;
  const keyLabel = m.keyLabel.value;
  const flash = m.flash.value;
  const mode = m.modes.mode.value;
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
      {run ? <SendModePicker model={m} /> : null}
      {!run || m.hasContent.value
        ? (
          <button
            type="submit"
            class="btn-send"
            data-mode={run ? mode : undefined}
            disabled={!m.canSend.value}
            aria-label={sending ? "Sending" : run ? `${MODE_LABEL[mode]} message` : "Send message"}
            title={run
              ? `${MODE_LABEL[mode]} (${keyLabel}): ${MODE_HINT[mode]}`
              : `Send (${keyLabel})`}
          >
            {run ? <span class="send-mode-label">{MODE_LABEL[mode]}</span> : null}
            <Icon name="arrowUp" size={16} />
          </button>
        )
        : null}
    </>
  );
}
