// Browser-safe: imports nothing from Deno or the database.
// Page-wide keys: Esc stops a running answer (when no menu, dialog or popover has the key);
// Ctrl/Cmd+K opens the quick switcher (lib/browser/quick_switcher.ts, loaded on first use).
// Invariant: a key something else already handled (defaultPrevented) is left alone.

/** Install the page-wide keys (lib/browser/pages/chat_chrome.ts calls it once). */
export function installChatKeys(): void {
  document.addEventListener("keydown", onKey);
}

function onKey(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.isComposing) return;
  if (e.key === "k" && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
    e.preventDefault();
    void import("./quick_switcher.ts").then((m) => m.openQuickSwitcher());
    return;
  }
  if (e.key !== "Escape" || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
  if (document.querySelector("dialog[open], [role='menu']")) return;
  const stop = document.querySelector<HTMLButtonElement>("button[data-action='stop']");
  if (!stop || stop.disabled) return;
  e.preventDefault();
  stop.click();
}
