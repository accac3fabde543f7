// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// The frame's behaviour in the browser: the theme (applied at once, saved to settings), the
// drawer holding the sidebar below 900 px, the overlay scrim and Escape that close it, and the app
// height following the visual viewport so the composer stays above an on-screen keyboard.
// The top bar's goal chip follows the runs (its code loads only once a goal is in play).
// Invariant: every state lives in a data attribute the server can render (no flash on load).
import { api, ApiError } from "../api_client.ts";
import { t } from "../../i18n/t.ts";
import { emitHermesEvent, onHermesEvent, type ThemePreference } from "../../shared/ui_events.ts";

/** Below 900 px the sidebar is a drawer (static/style.css, sidebar.css): phones and 200% zoom. */
const DRAWER_QUERY = "(max-width: 899px)";

/** The phone layout's breakpoint (static/style.css, < 640 px): the on-screen keyboard's. */
const PHONE_QUERY = "(max-width: 639px)";
const THEMES: readonly ThemePreference[] = ["light", "dark", "system"];

const root = () => document.documentElement;
const shell = () => document.querySelector<HTMLElement>(".app");

/** The theme in effect: "system" resolved with prefers-color-scheme. */
export function effectiveTheme(pref: ThemePreference): "light" | "dark" {
  if (pref !== "system") return pref;
  return matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

function currentPreference(): ThemePreference {
  const t = root().dataset.theme as ThemePreference | undefined;
  return t && THEMES.includes(t) ? t : "dark";
}

/** Put `pref` on <html> and label the toggle with what a click will do. */
function applyTheme(pref: ThemePreference): void {
  root().dataset.theme = pref;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]');
  if (meta) meta.content = pref === "system" ? "dark light" : pref;
  const next = effectiveTheme(pref) === "dark" ? "light" : "dark";
  for (const btn of document.querySelectorAll<HTMLElement>('[data-action="toggle-theme"]')) {
    btn.dataset.themeEffective = effectiveTheme(pref);
    const label = t("shell.switchToTheme", { theme: next });
    btn.setAttribute("aria-label", label);
    btn.title = label;
  }
}

async function saveTheme(pref: ThemePreference, previous: ThemePreference): Promise<void> {
  try {
    await api("POST", "/api/settings", { theme: pref });
  } catch (err) {
    applyTheme(previous);
    const why = err instanceof ApiError ? err.message : String(err);
    console.warn(`The theme could not be saved: ${why}`);
  }
}

function setDrawer(open: boolean, opts: { focus?: boolean } = {}): void {
  const app = shell();
  if (!app) return;
  app.dataset.drawer = open ? "open" : "closed";
  // The page behind the drawer is out of reach (focus and screen readers stay in the drawer).
  const main = app.querySelector<HTMLElement>(".conversation");
  if (main) main.inert = open;
  for (const btn of document.querySelectorAll('[data-action="toggle-sidebar"]')) {
    btn.setAttribute("aria-expanded", String(open));
  }
  const sidebar = app.querySelector<HTMLElement>(".sidebar");
  if (open && opts.focus && sidebar) {
    sidebar.querySelector<HTMLElement>("a, button, input")?.focus({ preventScroll: true });
  }
  if (!open && opts.focus) {
    document.querySelector<HTMLElement>('[data-action="toggle-sidebar"]')?.focus();
  }
}

/** Close the overlays (the sidebar's drawer and the panel's phone slide-over). */
function closeOverlays(focus: boolean): void {
  const app = shell();
  if (!app) return;
  if (app.dataset.drawer === "open") setDrawer(false, { focus });
  if (app.dataset.panelPhone === "open") {
    // The workspace panel script owns the panel; ask it through its own toggle's contract.
    emitHermesEvent("hermes:workspace-panel", { open: false });
  }
}

/**
 * Follow the visual viewport on phones: when an on-screen keyboard covers part of the
 * layout viewport (browsers that ignore `interactive-widget=resizes-content`), shrink the
 * app to the visible height so the composer stays in view.
 */
function trackVisualViewport(): void {
  const vv = globalThis.visualViewport;
  if (!vv) return;
  const phone = matchMedia(PHONE_QUERY);
  const update = () => {
    if (phone.matches && vv.scale <= 1.01) {
      root().style.setProperty("--app-height", `${Math.round(vv.height)}px`);
    } else {
      root().style.removeProperty("--app-height");
    }
  };
  vv.addEventListener("resize", update);
  phone.addEventListener("change", update);
  update();
}

function init(): void {
  applyTheme(currentPreference());
  matchMedia("(prefers-color-scheme: light)").addEventListener("change", () => {
    applyTheme(currentPreference());
  });
  onHermesEvent("hermes:theme-change", ({ theme, persist }) => {
    if (!THEMES.includes(theme)) return;
    const previous = currentPreference();
    applyTheme(theme);
    if (persist !== false) void saveTheme(theme, previous);
  });

  document.addEventListener("click", (e) => {
    const target = (e.target as Element | null)?.closest<HTMLElement>("[data-action]");
    const action = target?.dataset.action;
    if (action === "toggle-theme") {
      const next = effectiveTheme(currentPreference()) === "dark" ? "light" : "dark";
      emitHermesEvent("hermes:theme-change", { theme: next });
    } else if (action === "toggle-sidebar") {
      setDrawer(shell()?.dataset.drawer !== "open", { focus: true });
    } else if (action === "close-overlays") {
      closeOverlays(true);
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    if (document.querySelector("dialog[open]")) return; // the dialog's own Escape
    const app = shell();
    if (app?.dataset.drawer === "open" || app?.dataset.panelPhone === "open") {
      e.preventDefault();
      closeOverlays(true);
    }
  });
  // Leaving the drawer layout closes the drawer (it has no meaning beside a visible sidebar).
  matchMedia(DRAWER_QUERY).addEventListener("change", (e) => {
    if (!e.matches) setDrawer(false);
  });
  trackVisualViewport();
  followSession();
  registerServiceWorker();
}

/**
 * The installed app's worker (/sw.js, lib/pwa/service_worker.ts): it caches only the shell's
 * static files and shows an offline page when the server is unreachable. Registered after
 * load so it never competes with the first paint; browsers without it (or on plain http off
 * localhost) simply skip it.
 */
function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator) || !isSecureContext) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => {
      console.warn(`Offline support is unavailable: ${err instanceof Error ? err.message : err}`);
    });
  };
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

/** The open session, from the address bar (the Transcript may change it without a reload). */
const openSessionId = () => new URL(location.href).searchParams.get("session");

/** The goal chip's code (lib/browser/goal_chip.ts), loaded on first need. */
const goalChip = () => import("../goal_chip.ts");
const goalShown = () => document.querySelector("[data-goal-chip]:not([hidden])") !== null;

/** Keep the goal chip in step: after `/goal`, and after each run while a goal is shown. */
function followGoal(): void {
  onHermesEvent("hermes:goal-changed", ({ session_id }) => {
    const open = openSessionId();
    if (open && open !== session_id) return;
    void goalChip().then((m) => m.refreshGoalChip(session_id)).catch((err) => {
      console.warn(`The goal could not be loaded: ${err instanceof Error ? err.message : err}`);
    });
  });
  onHermesEvent("hermes:chat-ended", ({ session_id, stream_id }) => {
    if (session_id !== openSessionId() || !goalShown()) return;
    void goalChip().then((m) => m.watchAfterRun(session_id, stream_id));
  });
  // The chip's popover closes on a click elsewhere, like the other popovers.
  document.addEventListener("pointerdown", (e) => {
    const open = document.querySelector<HTMLDetailsElement>("details[data-goal-chip][open]");
    if (open && !open.contains(e.target as Node)) open.open = false;
  });
  // Loaded while a goal is active: its evaluation (or next turn) may be under way right now.
  const open = openSessionId();
  if (open && document.querySelector('[data-goal-chip][data-status="active"]:not([hidden])')) {
    void goalChip().then((m) => m.watchAfterRun(open, null));
  }
}

/** Keep the top bar (and the tab title) in step with the open session's title and context. */
function followSession(): void {
  followGoal();
  onHermesEvent("hermes:session-title", ({ session_id, title }) => {
    if (session_id !== openSessionId()) return;
    const h1 = document.querySelector<HTMLElement>("[data-topbar-title]");
    if (h1) {
      h1.textContent = title;
      h1.title = title;
    }
    document.title = t("shell.pageTitle", { title });
  });
  onHermesEvent("hermes:session-updated", ({ session_id, model, workspace }) => {
    if (session_id !== openSessionId()) return;
    const home = document.querySelector<HTMLElement>(".topbar")?.dataset.home?.replace(/\/+$/, "");
    const shown = home && (workspace === home || workspace.startsWith(home + "/"))
      ? "~" + workspace.slice(home.length)
      : workspace;
    const ws = document.querySelector<HTMLElement>("[data-topbar-workspace]");
    if (ws) {
      ws.hidden = !workspace;
      ws.title = shown;
      const path = ws.querySelector(".topbar-workspace-path");
      if (path) path.textContent = shown;
    }
    const m = document.querySelector<HTMLElement>("[data-topbar-model]");
    if (m) {
      m.hidden = !model;
      m.textContent = model ?? "";
    }
  });
}

if (typeof document !== "undefined") init();
