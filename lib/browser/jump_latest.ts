// Browser-safe: imports nothing from Deno or the database.
// "Jump to latest": while an answer streams and the person has scrolled up to read, a button
// over the composer brings the transcript back to its end (and hides once there). Invariant:
// nothing scrolls on its own while the person is reading; the button is the only way back.
import { onHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";

/** Pixels from the end that still count as "at the latest". */
const NEAR_END = 120;

const scroller = () => document.querySelector<HTMLElement>(".transcript");

/** How far the transcript is from its end (its flex column may run in reverse). */
function fromEnd(s: HTMLElement): number {
  return getComputedStyle(s).flexDirection === "column-reverse"
    ? Math.abs(s.scrollTop)
    : s.scrollHeight - s.clientHeight - s.scrollTop;
}

/** Install the button's logic (lib/browser/pages/chat_chrome.ts calls it once). */
export function installJumpToLatest(): void {
  const s = scroller();
  if (!s) return;
  // The run this page follows, by stream id: a late end of an earlier run (its events can
  // trail the next run's start) must not hide the button while the new one streams.
  let running: string | null = null;
  let button: HTMLButtonElement | null = null;
  const update = () => {
    const show = running !== null && fromEnd(s) > NEAR_END;
    if (show && !button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "jump-latest";
      button.dataset.jumpLatest = "";
      button.textContent = t("transcript.jumpLatest");
      button.addEventListener("click", () => {
        s.scrollTop = getComputedStyle(s).flexDirection === "column-reverse" ? 0 : s.scrollHeight;
        update();
      });
      // Just above the composer (the dock is positioned for it in static/transcript.css).
      (document.querySelector(".composer-dock") ?? s.parentElement)?.prepend(button);
    } else if (!show && button) {
      button.remove();
      button = null;
    }
  };
  s.addEventListener("scroll", update, { passive: true });
  onHermesEvent("hermes:run-state", ({ active, stream_id }) => {
    running = active ? stream_id : running === stream_id ? null : running;
    update();
  });
}
