// Browser-safe: imports nothing from Deno or the database.
// Touch screens have no hover to bring out a message's actions, so static/transcript.css keeps
// them out of sight there: a tap on a message shows its row (and puts away the one shown
// before). Focus reveals a row on its own, in CSS.

/** The action row of the message at `target`: the user's own, or its turn's answer row. */
function rowOf(target: Element): HTMLElement | null {
  const msg = target.closest(".turn .msg");
  if (!msg) return null;
  return msg.classList.contains("msg-user")
    ? msg.querySelector<HTMLElement>(":scope > .msg-actions")
    : msg.closest(".turn")?.querySelector<HTMLElement>(":scope > .msg-actions-answer") ?? null;
}

/** Show the action row of the message a tap landed on (`target`), putting away the last one. */
export function revealRowAt(target: Element | null): void {
  // A tap on an action keeps its row where it is.
  if (!target?.closest || target.closest(".msg-actions")) return;
  const row = rowOf(target);
  for (const shown of document.querySelectorAll(".msg-actions[data-revealed]")) {
    if (shown !== row) shown.removeAttribute("data-revealed");
  }
  row?.setAttribute("data-revealed", "");
}

/** Listen for taps on messages; returns the uninstaller. */
export function installMessageReveal(): () => void {
  const onClick = (e: MouseEvent) => revealRowAt(e.target as Element | null);
  document.addEventListener("click", onClick);
  return () => document.removeEventListener("click", onClick);
}
