// Browser-safe: imports nothing from Deno or the database.
// The "Show thinking" setting applied at once: <html data-hide-thinking> (rendered by
// routes/_app.tsx from the stored setting) follows each save, and CSS hides thinking blocks.
import { onHermesEvent } from "../shared/ui_events.ts";

/** Follow the setting from now on (lib/browser/pages/chat_chrome.ts calls it once). */
export function installThinkingToggle(): void {
  onHermesEvent("hermes:settings-changed", ({ settings }) => {
    if (typeof settings.show_thinking !== "boolean") return;
    document.documentElement.toggleAttribute("data-hide-thinking", !settings.show_thinking);
  });
}
