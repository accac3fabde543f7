// Browser-safe: imports nothing from Deno or the database.
// The conversation outline (`show_conversation_outline`): a quiet list of the person's own
// messages beside the transcript on wide screens, each a button that brings its turn into view,
// the way the original's jump-to-question panel does. Built from the turns on the page (the
// server's, live ones, older pages as they load); message text goes in as text, never markup.
// Loaded by lib/browser/transcript_display.ts once the setting is on.
import { t } from "../i18n/t.ts";
import { displayOn } from "./transcript_display.ts";
import { scrollBehavior } from "./motion.ts";
import { watchTranscript } from "./transcript_watch.ts";

/** Characters of a message an entry shows (the rest is in its title). */
const ENTRY_CHARS = 80;

let stop: (() => void) | null = null;

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim())?.trim() ?? "";
  return line.length > ENTRY_CHARS ? line.slice(0, ENTRY_CHARS - 1) + "…" : line;
}

/** The nav, made once (beside the transcript, inside the conversation column). */
function outline(): HTMLElement | null {
  let nav = document.querySelector<HTMLElement>("[data-outline]");
  if (nav) return nav;
  const column = document.querySelector(".conversation");
  if (!column) return null;
  nav = document.createElement("nav");
  nav.className = "tx-outline";
  nav.dataset.outline = "";
  nav.setAttribute("aria-label", t("tdisplay.outline"));
  const title = document.createElement("p");
  title.className = "tx-outline-title";
  title.textContent = t("tdisplay.outline");
  const list = document.createElement("ol");
  list.className = "tx-outline-list";
  nav.append(title, list);
  nav.addEventListener("click", (e) => {
    const btn = (e.target as Element).closest<HTMLElement>("[data-outline-turn]");
    const turn = btn &&
      [...document.querySelectorAll<HTMLElement>(".turn")].find((x) =>
        x.dataset.turn === btn.dataset.outlineTurn
      );
    turn?.scrollIntoView({ block: "start", behavior: scrollBehavior() });
  });
  column.append(nav);
  return nav;
}

function build(): void {
  const nav = outline();
  const list = nav?.querySelector("ol");
  if (!nav || !list) return;
  const turns = [...document.querySelectorAll<HTMLElement>(".turn")].filter((x) =>
    x.querySelector(":scope > .msg-user")
  );
  nav.hidden = turns.length === 0;
  const keys = turns.map((x) => x.dataset.turn ?? "").join("\n");
  if (list.dataset.keys === keys) return; // nothing new: no mutation, no loop
  list.dataset.keys = keys;
  list.replaceChildren(...turns.map((turn, i) => {
    const text = turn.querySelector(".msg-user-text, .msg-user-bubble")?.textContent ?? "";
    const li = document.createElement("li");
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "tx-outline-item";
    btn.dataset.outlineTurn = turn.dataset.turn ?? "";
    btn.title = text.trim();
    const n = document.createElement("span");
    n.className = "tx-outline-n";
    n.textContent = String(i + 1);
    const label = document.createElement("span");
    label.className = "tx-outline-text";
    label.dir = "auto";
    label.textContent = firstLine(text) || t("tdisplay.outlineAttachment");
    btn.append(n, label);
    li.append(btn);
    return li;
  }));
}

/** Apply the setting as painted now. */
export function refresh(): void {
  if (!displayOn("data-show-outline")) {
    stop?.();
    stop = null;
    document.querySelector("[data-outline]")?.remove();
    return;
  }
  stop ??= watchTranscript(build);
  build();
}
