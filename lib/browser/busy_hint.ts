// Browser-safe: imports nothing from Deno or the database.
// `show_busy_placeholder_hint`: while an answer runs in the open chat, the empty composer's
// placeholder says what Enter does now (queue, steer or interrupt: `default_message_mode`) and
// which commands do the others; when the run ends the usual placeholder comes back. Loaded by
// lib/browser/transcript_display.ts once the setting is on.
import { t } from "../i18n/t.ts";
import { onHermesEvent } from "../shared/ui_events.ts";
import { displayOn } from "./transcript_display.ts";
import { openSessionId } from "./transcript_watch.ts";

const HINT_KEYS: Record<string, string> = {
  queue: "tdisplay.busyHintQueue",
  steer: "tdisplay.busyHintSteer",
  interrupt: "tdisplay.busyHintInterrupt",
};

let busy = false;
let off: (() => void) | null = null;
/** The composer's own placeholder, put back when the run ends or the setting goes off. */
let idle: string | null = null;

const input = () => document.querySelector<HTMLTextAreaElement>("#composer-input");

function paint(): void {
  const box = input();
  if (!box) return;
  idle ??= box.placeholder;
  const mode = document.documentElement.dataset.messageMode ?? "queue";
  box.placeholder = busy && displayOn("data-busy-hint")
    ? t(HINT_KEYS[mode] ?? HINT_KEYS.queue)
    : idle;
}

/** Apply the setting as painted now. */
export function refresh(): void {
  if (!off) {
    // Found running on load: the run's turn is live before this file arrives.
    busy = !!document.querySelector(".turns-live .turn[data-live]");
    off = onHermesEvent("hermes:run-state", ({ session_id, active }) => {
      if (session_id && session_id !== openSessionId()) return;
      busy = active;
      paint();
    });
  }
  paint();
}
