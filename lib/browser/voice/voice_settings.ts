// Browser-safe: imports nothing from Deno or the database.
// The Control Center's Voice section (components/control/VoiceSection.tsx), loaded by the voice
// page script on the first change or focus in it: each field saves on change (POST
// /api/settings with that one key; `hermes:settings-changed` tells the page), and the browser
// voice list is filled from speechSynthesis when the list is opened (voices load late).
import { api } from "../api_client.ts";
import { reportError, setStatus } from "../control_panels.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import { t } from "../../i18n/t.ts";

type Field = HTMLInputElement | HTMLSelectElement;

/** The value a field stands for: a switch's state, a number, or trimmed text. */
export function fieldValue(el: Field): unknown {
  if (el instanceof HTMLInputElement && el.type === "checkbox") return el.checked;
  if (el instanceof HTMLInputElement && el.type === "number") return Number(el.value);
  return el.value.trim();
}

/** Save the one setting `el` holds; the section's status line says how it went. */
export async function saveVoiceSetting(el: Field): Promise<void> {
  const key = el.dataset.voiceSetting;
  if (!key) return;
  const block = el.closest("[data-cc-block]");
  el.removeAttribute("aria-invalid");
  try {
    const settings = await api<Record<string, unknown> & { ignored?: string[] }>(
      "POST",
      "/api/settings",
      { [key]: fieldValue(el) },
    );
    if (settings.ignored?.includes(key)) {
      el.setAttribute("aria-invalid", "true");
      setStatus(block, "voice", t("voice.notSaved"), "error");
      return;
    }
    emitHermesEvent("hermes:settings-changed", { changed: [key], settings });
    setStatus(block, "voice", t("voice.saved"), "success");
  } catch (err) {
    reportError(block, "voice", err);
  }
}

/** Fill the browser voice list (keeping the chosen one) from speechSynthesis. */
export function fillVoices(select: HTMLSelectElement): void {
  const synth = globalThis.speechSynthesis;
  if (!synth || select.dataset.filled) return;
  const voices = synth.getVoices();
  if (!voices.length) {
    synth.addEventListener("voiceschanged", () => fillVoices(select), { once: true });
    return;
  }
  select.dataset.filled = "1";
  const chosen = select.value;
  const options = [new Option(t("voice.defaultVoice"), "")];
  for (
    const v of [...voices].sort((a, b) =>
      a.lang.localeCompare(b.lang) || a.name.localeCompare(b.name)
    )
  ) {
    options.push(new Option(`${v.name} (${v.lang})`, v.name));
  }
  if (chosen && !voices.some((v) => v.name === chosen)) options.push(new Option(chosen, chosen));
  select.replaceChildren(...options);
  select.value = chosen;
}
