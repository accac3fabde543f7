// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// Voice, wired on every page with no weight up front (its modules load on first use): the
// Control Center's Voice section saves each field on change and lists the browser's voices
// when opened (lib/browser/voice/voice_settings.ts), and with `tts_auto_read` on, an answer
// that has just finished is read aloud (lib/browser/voice/read_aloud.ts).
import { onHermesEvent } from "../../shared/ui_events.ts";

const settings = () => import("../voice/voice_settings.ts");

function init(): void {
  document.addEventListener("change", (e) => {
    const el = (e.target as Element | null)?.closest?.("[data-voice-setting]") as
      | HTMLInputElement
      | null;
    if (el) void settings().then((m) => m.saveVoiceSetting(el));
  });
  const fill = (e: Event) => {
    const el = (e.target as Element | null)?.closest?.("[data-voice-voices]") as
      | HTMLSelectElement
      | null;
    if (el) void settings().then((m) => m.fillVoices(el));
  };
  document.addEventListener("focusin", fill);
  document.addEventListener("pointerdown", fill);
  onHermesEvent("hermes:chat-ended", ({ reason }) => {
    if (reason !== "done") return;
    void import("../voice/read_aloud.ts").then((m) => m.autoRead()).catch(() => {});
  });
}

if (typeof document !== "undefined") init();
