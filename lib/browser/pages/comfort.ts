// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// Keyboard shortcuts beside Ctrl/Cmd+K and Esc (lib/browser/chat_keys.ts): Mod+Shift+O a new
// chat, Mod+B hides or shows the sidebar, Mod+, opens the Control Center, Mod+/ focuses the
// composer, `?` the shortcuts dialog. Mod is ⌘ on macOS (where Ctrl+B/O edit text), Ctrl
// elsewhere. This part only recognises the key; what it does (lib/browser/comfort_actions.ts)
// loads on first use. It also starts the tab's "needs you" watcher (lib/browser/attention.ts)
// once the page is idle.
// Invariants: a key already handled (defaultPrevented), typed while composing, or meant for
// the terminal or code editor is left alone; `?` never fires in a text field; nothing fires
// behind a modal.
import { watchAttention } from "../attention.ts";
import type { ComfortAction } from "../comfort_actions.ts";

/** Below 900 px the sidebar is a drawer (static/style.css, sidebar.css): phones and 200% zoom. */
const DRAWER_QUERY = "(max-width: 899px)";

let mac = false;
const root = () => document.documentElement;

function run(action: ComfortAction): void {
  void import("../comfort_actions.ts").then((m) => m.runComfortAction(action, mac));
}

/** The key that was meant: the letter typed (any layout), else the key's place (e.g. Cyrillic). */
function keyOf(e: KeyboardEvent): string {
  if (/^[a-z,/]$/i.test(e.key)) return e.key.toLowerCase();
  return ({ Comma: ",", Slash: "/" } as Record<string, string>)[e.code] ??
    e.code.replace(/^Key/, "").toLowerCase();
}

/** The action `e` asks for, or null. */
function actionOf(e: KeyboardEvent): ComfortAction | null {
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  const key = keyOf(e);
  if (mod) {
    if (key === "/") return "composer";
    if (e.shiftKey) return key === "o" ? "new-chat" : null;
    return key === "b" ? "sidebar" : key === "," ? "settings" : null;
  }
  const target = e.target as Element | null;
  const typing = target?.closest?.(
    "input, textarea, select, [contenteditable]:not([contenteditable='false'])",
  );
  return e.key === "?" && !e.ctrlKey && !e.metaKey && !typing ? "help" : null;
}

function onKey(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.isComposing || e.altKey) return;
  if ((e.target as Element | null)?.closest?.(".xterm, .cm-editor")) return;
  if (root().hasAttribute("data-cc-open") || document.querySelector("dialog[open]")) return;
  const action = actionOf(e);
  if (!action) return;
  e.preventDefault();
  run(action);
}

function init(): void {
  mac = /mac|iphone|ipad/i.test(navigator.platform);
  document.addEventListener("keydown", onKey);
  // On a desktop with the sidebar hidden, the top bar's chats button shows it again (the
  // drawer it opens on phones means nothing beside a conversation that has the room).
  addEventListener("click", (e) => {
    const btn = (e.target as Element | null)?.closest?.('[data-action="toggle-sidebar"]');
    if (!btn || matchMedia(DRAWER_QUERY).matches || !root().hasAttribute("data-sidebar-hidden")) {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    run("sidebar");
  }, true);
  // Bundled with the page scripts, not imported at idle: every page runs it before any
  // interaction, and a separate response would only cost its own overhead (page_weight test).
  const watch = () => watchAttention();
  const idle = () =>
    "requestIdleCallback" in globalThis ? requestIdleCallback(watch, { timeout: 2000 }) : watch();
  if (document.readyState === "complete") idle();
  else addEventListener("load", idle, { once: true });
}

if (typeof document !== "undefined") init();
