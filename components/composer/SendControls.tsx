// The composer footer's right side: the live hint (a flash, "Uploading…" or the send keys),
// Stop while an answer runs, and Send (while it runs: the mode picker, and Send named after
// the mode: Queue, Steer or Interrupt). Rendered inside the Composer
// island; the model decides what each shows.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";
import { SendModePicker } from "./SendModePicker.tsx";
import { modeHint, modeLabel } from "../../lib/browser/composer/message_mode.ts";
import { t } from "../../lib/i18n/t.ts";

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
          ? <span class="composer-keys">{t("composer.uploading")}</span>
          : <span class="composer-keys" data-key-hint>{m.hint.value}</span>}
      </span>
      {run
        ? (
          <button
            type="button"
            class="btn-stop"
            data-action="stop"
            aria-label={t("composer.stopAnswer")}
            title={t("composer.stop")}
            onClick={() => {
              // The button goes away with the run: keep the keyboard in the composer.
              m.view.focus();
              void m.stop();
            }}
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
            aria-label={t(
              sending ? "composer.sending" : run ? "composer.modeMessage" : "composer.sendMessage",
              { mode },
            )}
            title={run
              ? t("composer.modeTitle", {
                label: modeLabel(mode),
                keys: keyLabel,
                hint: modeHint(mode),
              })
              : t("composer.sendTitle", { keys: keyLabel })}
          >
            {run ? <span class="send-mode-label">{modeLabel(mode)}</span> : null}
            <Icon name="arrowUp" size={16} />
          </button>
        )
        : null}
    </>
  );
}
