// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded with the
// Control Center's panel scripts (lib/browser/control/control_center.ts), it registers once.
// Appearance › Conversation display (components/control/TranscriptOptions.tsx): each switch or
// Activity mode is saved (POST /api/settings) and announced as `hermes:settings-changed`, which
// the page follows at once (lib/browser/transcript_display.ts); a failed save puts the control
// back and says why.
import { api } from "../api_client.ts";
import { controlLayer, reportError, setStatus } from "../control_panels.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import { t } from "../../i18n/t.ts";

async function saveOption(input: HTMLInputElement, key: string): Promise<void> {
  const block = input.closest("[data-cc-block]");
  const radio = input.type === "radio";
  const value: unknown = radio ? input.value : input.checked;
  const before = radio
    ? block?.querySelector<HTMLInputElement>(`input[name="${key}"][data-was-checked]`)
    : null;
  try {
    const patch = { [key]: value };
    const settings = await api<Record<string, unknown>>("POST", "/api/settings", patch);
    emitHermesEvent("hermes:settings-changed", { changed: [key], settings });
    if (radio) {
      before?.removeAttribute("data-was-checked");
      input.setAttribute("data-was-checked", "");
    }
    setStatus(block, "transcript-display", t("tdisplay.saved"), "success");
  } catch (err) {
    if (radio && before) before.checked = true;
    else if (!radio) input.checked = !input.checked;
    reportError(block, "transcript-display", err);
  }
}

function init(): void {
  document.addEventListener("change", (e) => {
    const input = e.target as HTMLInputElement;
    const key = input.dataset?.transcriptSetting;
    if (!key || !controlLayer()?.contains(input)) return;
    // The radio that was on before, for putting back after a failed save.
    const group = input.closest("fieldset");
    if (input.type === "radio" && group && !group.querySelector("[data-was-checked]")) {
      const was = [...group.querySelectorAll<HTMLInputElement>("input[type=radio]")].find((r) =>
        r.defaultChecked
      );
      was?.setAttribute("data-was-checked", "");
    }
    void saveOption(input, key);
  });
}

if (typeof document !== "undefined") init();
