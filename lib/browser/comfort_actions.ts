// Browser-safe: imports nothing from Deno or the database.
// What the comfort shortcuts do (recognised by lib/browser/pages/comfort.ts, which loads this on
// the first one). The desktop sidebar's hidden state is this browser's own: the
// `hermes_sidebar` cookie, which the server paints as `data-sidebar-hidden` on <html>
// (routes/_middleware.ts, static/skins.css), so a reload never flashes it back.
import { emitHermesEvent } from "../shared/ui_events.ts";

/** Below 900 px the sidebar is a drawer (static/style.css, sidebar.css): phones and 200% zoom. */
const DRAWER_QUERY = "(max-width: 899px)";

export type ComfortAction = "new-chat" | "sidebar" | "settings" | "composer" | "help";

function focusComposer(): void {
  document.querySelector<HTMLElement>("#composer-input")?.focus();
}

/** Hide or show the desktop sidebar; where it is a drawer, open or close the drawer. */
function toggleSidebar(): void {
  if (matchMedia(DRAWER_QUERY).matches) {
    document.querySelector<HTMLElement>('[data-action="toggle-sidebar"]')?.click();
    return;
  }
  const root = document.documentElement;
  const hide = !root.hasAttribute("data-sidebar-hidden");
  root.toggleAttribute("data-sidebar-hidden", hide);
  document.cookie = `hermes_sidebar=${hide ? "hidden" : "shown"}; path=/; max-age=31536000; ` +
    "samesite=lax";
  for (const b of document.querySelectorAll('[data-action="toggle-sidebar"]')) {
    b.setAttribute("aria-expanded", String(!hide));
  }
  // Focus never stays in what just disappeared.
  if (hide && document.activeElement?.closest(".sidebar")) focusComposer();
}

/** A new chat: the sidebar's "New chat" link (it keeps the project), or the composer if here. */
function newChat(): void {
  const here = location.pathname === "/" &&
    !new URL(location.href).searchParams.has("session") &&
    document.querySelector("#composer-input");
  if (here) return focusComposer();
  const link = document.querySelector<HTMLAnchorElement>("a.btn-new-chat");
  location.assign(link?.href ?? "/");
}

export function runComfortAction(action: ComfortAction, mac: boolean): void {
  if (action === "new-chat") newChat();
  else if (action === "sidebar") toggleSidebar();
  else if (action === "settings") emitHermesEvent("hermes:open-control-center", {});
  else if (action === "composer") focusComposer();
  else void import("./shortcuts_dialog.ts").then((m) => m.openShortcuts(mac));
}
