// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// The sidebar's behaviour: search as you type (titles and message text), the archive view,
// the row and chip menus (lib/browser/sidebar_actions.ts, imported on first use), the paged,
// virtualized list (lib/browser/session_vlist.ts: next pages fetched as the user scrolls, only
// visible rows in the DOM), and refreshing it without a reload on every `sessions_changed` event
// of GET /api/sessions/events (and on this page's own `hermes:*` events, debounced together).
// Rows are always rendered by the server (GET /partials/sidebar); this script never builds
// rows, so no server text ever passes through markup here. The browser's zone reaches the
// server as the `hermes_tz` cookie (and `tz_offset`), so Today/Yesterday are the viewer's days.
import { ApiError } from "../api_client.ts";
import { t } from "../../i18n/t.ts";
import { emitHermesEvent, onHermesEvent } from "../../shared/ui_events.ts";
import type { ProjectInfo } from "../project_dialogs.ts";
import type { SidebarContext } from "../sidebar_actions.ts";
import { SessionVList } from "../session_vlist.ts";
import { watchFeed } from "../connection_status.ts";

const SEARCH_DEBOUNCE_MS = 180;
const REFRESH_DEBOUNCE_MS = 120;
const NOTICE_MS = 6000;
/** Minutes east of UTC in this browser now (the Today/Yesterday groups follow it). */
const tzOffset = () => String(-new Date().getTimezoneOffset());

const sidebar = () => document.querySelector<HTMLElement>("[data-sidebar]");
const body = () => document.querySelector<HTMLElement>("[data-sidebar-body]");
const searchInput = () => document.querySelector<HTMLInputElement>("#session-search");

function projects(): ProjectInfo[] {
  return [...document.querySelectorAll<HTMLElement>("[data-project-chips] [data-project-id]")]
    .map((c) => ({
      id: c.dataset.projectId!,
      name: c.dataset.name ?? "",
      color: c.dataset.color || null,
    }));
}

/** The page's view state: the URL's session/project/archived/tasks/profile plus the search box. */
function viewParams(): URLSearchParams {
  const url = new URL(location.href);
  const out = new URLSearchParams();
  for (const k of ["session", "project", "archived", "tasks", "profile"]) {
    const v = url.searchParams.get(k);
    if (v) out.set(k, v);
  }
  const q = searchInput()?.value.trim() ?? url.searchParams.get("q") ?? "";
  if (q) out.set("q", q);
  return out;
}

// The paged list ------------------------------------------------------------------------

let vlist: SessionVList | null = null;
/** Sessions the change feed said left this view (deleted, archived, moved) since the last refresh. */
const dropped = new Set<string>();

async function fetchPage(cursor: string): Promise<string> {
  const params = viewParams();
  params.set("cursor", cursor);
  params.set("tz_offset", tzOffset());
  const res = await fetch(`/partials/sidebar?${params}`, {
    headers: { accept: "text/html" },
    credentials: "same-origin",
  });
  if (!res.ok) throw new Error(t("sidebar.nextPageFailed", { status: res.status }));
  return await res.text();
}

/** Take over the body's list (if it is the paged one), carrying deep rows over from `old`. */
function mountList(root: ParentNode, old: SessionVList | null): void {
  const el = root.querySelector<HTMLElement>("[data-vlist]");
  const scroller = root.querySelector<HTMLElement>(".session-list");
  vlist = el && scroller ? new SessionVList(el, scroller, fetchPage) : null;
  if (vlist && old) vlist.mergeFrom(old, dropped);
  old?.destroy();
  dropped.clear();
}

/** Keep the address bar in step with the sidebar's view (reloads and links keep it). */
function syncUrl(params: URLSearchParams): void {
  const url = new URL(location.href);
  for (const k of ["q", "archived"]) {
    const v = params.get(k);
    if (v) url.searchParams.set(k, v);
    else url.searchParams.delete(k);
  }
  if (url.href !== location.href) history.replaceState(history.state, "", url);
  const form = document.querySelector<HTMLFormElement>("[data-sidebar-search]");
  const hidden = form?.querySelector<HTMLInputElement>("input[name=archived]");
  if (params.get("archived") === "1" && form && !hidden) {
    const input = document.createElement("input");
    Object.assign(input, { type: "hidden", name: "archived", value: "1" });
    form.append(input);
  } else if (params.get("archived") !== "1") hidden?.remove();
}

// Notices --------------------------------------------------------------------------------

let noticeTimer: ReturnType<typeof setTimeout> | undefined;

/** Say something calmly under the search box (the pin cap, a failed call). */
function notice(text: string, tone: "info" | "error" = "info"): void {
  const box = document.querySelector<HTMLElement>("[data-sidebar-notice]");
  if (!box) return;
  const close = document.createElement("button");
  Object.assign(close, { type: "button", className: "sidebar-notice-close", textContent: "×" });
  close.setAttribute("aria-label", t("sidebar.dismiss"));
  close.addEventListener("click", () => (box.hidden = true));
  const span = document.createElement("span");
  span.className = "sidebar-notice-text";
  span.textContent = text;
  box.replaceChildren(span, close);
  box.dataset.tone = tone;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), NOTICE_MS);
}

/** A refusal in the server's words; anything else as `failKey` ("Renaming failed: {error}"). */
function reportError(err: unknown, failKey: string): void {
  if (err instanceof ApiError) {
    notice(err.message, err.status >= 400 && err.status < 500 ? "info" : "error");
  } else notice(t(failKey, { error: err instanceof Error ? err.message : String(err) }), "error");
}

// Refresh --------------------------------------------------------------------------------

let seq = 0;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Fetch the server's rendering of the sidebar body for the current view and swap it in,
 * keeping the list's scroll position and the focused row. Older answers are dropped.
 */
export async function refreshSidebar(): Promise<void> {
  clearTimeout(refreshTimer);
  const current = body();
  if (!current) return;
  const params = viewParams();
  const mine = ++seq;
  const form = document.querySelector<HTMLElement>("[data-sidebar-search]");
  form?.setAttribute("data-busy", "");
  let res: Response;
  try {
    const query = new URLSearchParams(params);
    query.set("tz_offset", tzOffset());
    res = await fetch(`/partials/sidebar?${query}`, {
      headers: { accept: "text/html" },
      credentials: "same-origin",
    });
  } catch {
    if (mine === seq) form?.removeAttribute("data-busy");
    notice(t("shell.serverUnreachable"), "error");
    return;
  } finally {
    if (mine === seq) form?.removeAttribute("data-busy");
  }
  if (res.redirected && new URL(res.url).pathname === "/login") {
    location.reload(); // signed out meanwhile
    return;
  }
  if (!res.ok) {
    if (mine === seq) notice(t("sidebar.refreshFailed", { status: res.status }), "error");
    return;
  }
  const html = await res.text();
  if (mine !== seq) return;
  // Server-rendered (every value escaped by the renderer); DOMParser runs no scripts.
  const doc = new DOMParser().parseFromString(html, "text/html");
  const next = doc.querySelector<HTMLElement>("[data-sidebar-body]");
  const live = body();
  if (!next || !live) return;
  const scroll = live.querySelector(".session-list")?.scrollTop ?? 0;
  const focused = document.activeElement as HTMLElement | null;
  const focusRow = live.contains(focused)
    ? focused?.closest<HTMLElement>(".session-row")?.dataset.sessionId
    : undefined;
  const focusMenuBtn = focused?.matches(".session-menu-btn") ?? false;
  const rowsBefore = [...live.querySelectorAll<HTMLElement>(".session-row")];
  const focusAt = rowsBefore.findIndex((r) => r.dataset.sessionId === focusRow);
  const adopted = document.importNode(next, true);
  live.replaceWith(adopted);
  mountList(adopted, vlist);
  const list = adopted.querySelector(".session-list");
  if (list) list.scrollTop = scroll;
  vlist?.render();
  if (focusRow) {
    const row = adopted.querySelector<HTMLElement>(
      `.session-row[data-session-id="${CSS.escape(focusRow)}"]`,
    );
    // A row that left the view (archived, deleted, moved) hands focus to the one now in its
    // place, else the one before it, so the keyboard is never dropped on <body>.
    const rows = [...adopted.querySelectorAll<HTMLElement>(".session-row")];
    const target = row ?? rows[focusAt] ?? rows[focusAt - 1] ?? rows.at(-1);
    target?.querySelector<HTMLElement>(focusMenuBtn && row ? ".session-menu-btn" : ".session-item")
      ?.focus({ preventScroll: true });
  }
  syncUrl(params);
  followOpenTitle(adopted);
}

/**
 * The list and the top bar show one title. A rename reaches the top bar through the feed's event;
 * one this page missed (the feed was reconnecting, and a stream never replays) still arrives with
 * the list that shows it, since every refresh reads the server's titles.
 */
function followOpenTitle(list: HTMLElement): void {
  const open = new URL(location.href).searchParams.get("session");
  if (!open) return;
  const row = list.querySelector<HTMLElement>(
    `.session-row[data-session-id="${CSS.escape(open)}"]`,
  );
  const title = row?.dataset.title;
  if (title && title !== document.querySelector("[data-topbar-title]")?.textContent) {
    emitHermesEvent("hermes:session-title", { session_id: open, title });
  }
}

/**
 * Refresh soon, once, however many events arrive together; never under an inline rename
 * (swapping the body would drop what the user is typing) or a row's open menu (its row and
 * the "…" button focus returns to would be gone, and focus with them): that waits until it is
 * done. An action picked from the menu refreshes by itself, after the menu has closed.
 */
function scheduleRefresh(): void {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    if (document.querySelector(".session-row[data-renaming], .session-row[data-menu-open]")) {
      scheduleRefresh();
    } else void refreshSidebar();
  }, REFRESH_DEBOUNCE_MS);
}

// Actions (loaded on first use) ------------------------------------------------------------

const context: SidebarContext = { refresh: refreshSidebar, reportError, projects };
const actions = () => import("../sidebar_actions.ts");

// Wiring ---------------------------------------------------------------------------------

/** A right-click has a pointer position; the keyboard's context-menu key may not. */
function menuPosition(e: MouseEvent, target: Element) {
  return e.clientX || e.clientY ? { point: { x: e.clientX, y: e.clientY } } : { anchor: target };
}

function init(): void {
  const root = sidebar();
  if (!root) return;
  document.cookie = `hermes_tz=${tzOffset()}; path=/; max-age=31536000; samesite=lax`;
  mountList(root, null);
  // First visit (no cookie yet) or a changed zone: the server grouped in another zone.
  const rendered = root.querySelector<HTMLElement>("[data-vlist]")?.dataset.tz;
  if (rendered !== undefined && rendered !== tzOffset()) void refreshSidebar();

  root.addEventListener("click", (e) => {
    const target = e.target as Element;
    const btn = target.closest<HTMLElement>("[data-action]");
    const action = btn?.dataset.action;
    if (action === "session-menu") {
      e.preventDefault();
      const row = btn!.closest<HTMLElement>(".session-row");
      if (row) void actions().then((a) => a.sessionMenu(context, row, { anchor: btn! }));
    } else if (action === "project-create") {
      e.preventDefault();
      void actions().then((a) => a.createProject(context));
    } else if (action === "archive-view") {
      e.preventDefault();
      const url = new URL(location.href);
      if (btn!.dataset.archived === "1") url.searchParams.set("archived", "1");
      else url.searchParams.delete("archived");
      history.replaceState(history.state, "", url);
      void refreshSidebar().then(() => {
        document.querySelector<HTMLElement>(
          btn!.dataset.archived === "1" ? ".archive-back" : ".archive-toggle, .session-item",
        )?.focus({ preventScroll: true });
      });
    }
  });

  root.addEventListener("contextmenu", (e) => {
    const target = e.target as Element;
    if (target.closest("input")) return; // keep the native menu in text fields
    const row = target.closest<HTMLElement>(".session-row");
    if (row && !("renaming" in row.dataset)) {
      e.preventDefault();
      const at = menuPosition(e, row);
      void actions().then((a) => a.sessionMenu(context, row, at));
      return;
    }
    const chip = target.closest<HTMLElement>("[data-project-chips] [data-project-id]");
    if (chip) {
      e.preventDefault();
      const at = menuPosition(e, chip);
      void actions().then((a) => a.projectMenu(context, chip, at));
    }
  });

  // Search as you type: titles and message text, snippets highlighted by the server.
  const form = document.querySelector<HTMLFormElement>("[data-sidebar-search]");
  const input = searchInput();
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  form?.addEventListener("submit", (e) => {
    e.preventDefault();
    clearTimeout(searchTimer);
    void refreshSidebar();
  });
  input?.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => void refreshSidebar(), SEARCH_DEBOUNCE_MS);
  });
  input?.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && input.value) {
      e.preventDefault();
      e.stopPropagation();
      input.value = "";
      clearTimeout(searchTimer);
      void refreshSidebar();
    } else if (e.key === "ArrowDown") {
      const first = document.querySelector<HTMLElement>(".session-list .session-item");
      if (first) {
        e.preventDefault();
        first.focus();
      }
    }
  });

  // Every change to the list, wherever it was made (another tab, a script, a run), arrives
  // on the change feed. This page's own `hermes:*` events refresh too: they come first, work
  // while the feed reconnects, and coalesce with the feed's event into one refresh.
  const feed = typeof EventSource === "undefined" ? null : new EventSource("/api/sessions/events");
  feed?.addEventListener("sessions_changed", (e) => {
    try {
      const data = JSON.parse((e as MessageEvent).data) as {
        reason?: string;
        session_id?: string;
        title?: string;
      };
      if (data.session_id && ["delete", "archive", "move"].includes(data.reason ?? "")) {
        dropped.add(data.session_id);
      }
      // A rename carries its title: the top bar follows from this same event.
      if (data.session_id && typeof data.title === "string") {
        emitHermesEvent("hermes:session-title", { session_id: data.session_id, title: data.title });
      }
    } catch { /* a refresh is right whatever the payload */ }
    scheduleRefresh();
  });
  addEventListener("pagehide", () => feed?.close());
  // The feed is the page's one always-open connection: the connection sign hears from it when
  // the server may be gone (imported statically: it must be here before the server goes, and
  // the build's page weight then counts it as the browser does).
  const watch = () => feed && watchFeed(feed);
  if (document.readyState === "complete") watch();
  else addEventListener("load", watch, { once: true });

  // Runs starting and ending, titles and other changes made in this page.
  for (
    const name of [
      "hermes:chat-started",
      "hermes:chat-ended",
      "hermes:run-state",
      "hermes:session-title",
      "hermes:sessions-changed",
      "hermes:session-rewritten",
    ] as const
  ) {
    onHermesEvent(name, () => scheduleRefresh());
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !document.querySelector(".menu, dialog[open]")) {
      scheduleRefresh();
    }
  });
}

if (typeof document !== "undefined") init();
