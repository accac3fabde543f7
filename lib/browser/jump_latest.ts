// Browser-safe: imports nothing from Deno or the database.
// Following the transcript's end, and "Jump to latest" as the way back to it. While the person
// is at the end, the end stays in view whatever grows (streamed prose, the settled answer's
// final render and action row, a taller composer); once they scroll away nothing moves on its
// own, and a button over the composer brings them back — during a run, and after it while the
// newest content is still out of view. With `auto_scroll_follow` off (<html
// data-no-auto-follow>) nothing follows: what grows below leaves the reader's place where it
// was, and the button offers the way down. Invariant: only the person's own scrolling stops the
// following; what this file scrolls is always the end, or back to the reader's own place.
import { onHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";

/** Pixels from the end that still count as "at the latest". */
const NEAR_END = 120;

const scroller = () => document.querySelector<HTMLElement>(".transcript");

/** The transcript's flex column runs in reverse: its end is at scrollTop 0. */
const reversed = (s: HTMLElement) => getComputedStyle(s).flexDirection === "column-reverse";

/** How far the transcript is from its end. */
function fromEnd(s: HTMLElement): number {
  return reversed(s) ? Math.abs(s.scrollTop) : s.scrollHeight - s.clientHeight - s.scrollTop;
}

function toEnd(s: HTMLElement): void {
  s.scrollTop = reversed(s) ? 0 : s.scrollHeight;
}

/** Install the following and the button (lib/browser/pages/chat_chrome.ts calls it once). */
export function installJumpToLatest(): void {
  const s = scroller();
  if (!s) return;
  // The run this page follows, by stream id: a late end of an earlier run (its events can
  // trail the next run's start) must not hide the button while the new one streams.
  let running: string | null = null;
  // Scroll anchoring keeps whatever is in view in place as content grows under it, which
  // left a finished answer below the composer: the end is held here instead.
  let following = fromEnd(s) <= NEAR_END;
  // A run ended while the person read further up: what it added is below them.
  let unseen = false;
  let button: HTMLButtonElement | null = null;
  const update = () => {
    const away = fromEnd(s) > NEAR_END;
    if (!away) unseen = false;
    const show = away && (running !== null || unseen);
    if (show && !button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "jump-latest";
      button.dataset.jumpLatest = "";
      button.textContent = t("transcript.jumpLatest");
      button.addEventListener("click", () => {
        following = true;
        toEnd(s);
        update();
      });
      // Just above the composer (the dock is positioned for it in static/transcript.css).
      (document.querySelector(".composer-dock") ?? s.parentElement)?.prepend(button);
    } else if (!show && button) {
      button.remove();
      button = null;
    }
  };
  // Not following: the first turn in view and where it was, kept there as content grows.
  let anchor: { el: Element; top: number } | null = null;
  const setAnchor = () => {
    const top = s.getBoundingClientRect().top;
    const el = [...s.querySelectorAll(".turn")].find((x) => x.getBoundingClientRect().bottom > top);
    anchor = el ? { el, top: el.getBoundingClientRect().top } : null;
  };
  // Every scroll the page makes lands at the end, so one that leaves it is the person's.
  s.addEventListener("scroll", () => {
    following = fromEnd(s) <= NEAR_END;
    setAnchor();
    update();
  }, { passive: true });
  /** Show the new turn from its start: at the end while it fits, else its top at the top. */
  const placeNewTurn = (turn: Element) => {
    const box = s.getBoundingClientRect();
    const r = turn.getBoundingClientRect();
    if (r.height <= box.height) toEnd(s);
    else s.scrollTop += r.top - box.top;
    anchor = { el: turn, top: turn.getBoundingClientRect().top };
  };
  // A run's turn is brought into view once, when it appears, then stays where it began. Counted
  // by position, not by element: the live turn is rendered again under its server key once the
  // run is announced, and placing that element again jumped back to the end. Settled turns
  // leave the live list, and the count follows it down.
  let placedTurns = 0;
  const keepPlace = () => {
    const live = s.querySelectorAll(".turns-live > .turn");
    if (live.length < placedTurns) placedTurns = live.length;
    // The run's own turn is the live one (an earlier run's turn no longer says so).
    const turn = [...s.querySelectorAll(".turns-live > .turn[data-live]")].at(-1);
    if (turn && live.length > placedTurns) {
      placedTurns = live.length;
      placeNewTurn(turn);
    } else if (anchor?.el.isConnected) {
      // The reversed column pins its end by itself: put the reader back where they were.
      const dy = anchor.el.getBoundingClientRect().top - anchor.top;
      if (Math.abs(dy) > 1) s.scrollTop += dy;
    }
    update();
  };
  const hold = () => {
    if (document.documentElement.hasAttribute("data-no-auto-follow")) return keepPlace();
    if (following && fromEnd(s) > 0) toEnd(s);
  };
  const sizes = new ResizeObserver(hold);
  sizes.observe(s);
  for (const child of s.children) sizes.observe(child);
  onHermesEvent("hermes:run-state", ({ active, stream_id }) => {
    if (!active && running === stream_id && !following) unseen = true;
    running = active ? stream_id : running === stream_id ? null : running;
    update();
  });
}
