// What Send does while an answer runs: Queue, Steer or Interrupt (lib/browser/composer/
// message_mode.ts), as a small native select beside Send so it works by keyboard and on phones.
// Rendered inside the Composer island, only while a run is active.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import {
  isMessageMode,
  MESSAGE_MODES,
  modeHint,
  modeLabel,
} from "../../lib/browser/composer/message_mode.ts";
import { t } from "../../lib/i18n/t.ts";

export function SendModePicker({ model: m }: { model: ComposerModel }) {
  const mode = m.modes.mode.value;
  return (
    <select
      class="send-mode"
      data-action="send-mode"
      aria-label={t("composer.sendModeLabel")}
      title={modeHint(mode)}
      value={mode}
      onChange={(e) => {
        const v = (e.currentTarget as HTMLSelectElement).value;
        if (isMessageMode(v)) m.modes.mode.value = v;
      }}
    >
      {MESSAGE_MODES.map((k) => <option value={k} key={k}>{modeLabel(k)}</option>)}
    </select>
  );
}
