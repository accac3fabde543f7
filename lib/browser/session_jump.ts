// Browser-safe: imports nothing from Deno or the database.
// Start and end jump buttons (`session_jump_buttons`): two quiet round buttons over the
// transcript's corner that take the reader to the first turn on the page (older pages load
// from there, by the loader's button or endless scrolling) or to its end. Loaded by
// lib/browser/transcript_display.ts once the setting is on.
import { t } from "../i18n/t.ts";
import { displayOn } from "./transcript_display.ts";
import { scrollBehavior } from "./motion.ts";

const scroller = () => document.querySelector<HTMLElement>(".transcript");

/** The reversed column's end is scrollTop 0 and its start the most negative scrollTop. */
function jump(to: "start" | "end"): void {
  const s = scroller();
  if (!s) return;
  const reversed = getComputedStyle(s).flexDirection === "column-reverse";
  const end = reversed ? 0 : s.scrollHeight;
  const start = reversed ? -s.scrollHeight : 0;
  s.scrollTo({ top: to === "end" ? end : start, behavior: scrollBehavior() });
}

function button(to: "start" | "end"): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "session-jump-btn";
  b.dataset.sessionJump = to;
  const label = to === "start" ? t("tdisplay.jumpStart") : t("tdisplay.jumpEnd");
  b.setAttribute("aria-label", label);
  b.title = label;
  b.textContent = to === "start" ? "↑" : "↓";
  b.addEventListener("click", () => jump(to));
  return b;
}

/** Apply the setting as painted now. */
export function refresh(): void {
  const box = document.querySelector("[data-session-jumps]");
  if (!displayOn("data-session-jump")) {
    box?.remove();
    return;
  }
  const s = scroller();
  if (box || !s?.dataset.sessionId) return;
  const group = document.createElement("div");
  group.className = "session-jumps";
  group.dataset.sessionJumps = "";
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", t("tdisplay.jumpGroup"));
  group.append(button("start"), button("end"));
  // Above the composer, whatever its height (static/transcript_display.css).
  (document.querySelector(".composer-dock") ?? document.querySelector(".conversation"))?.append(
    group,
  );
}
