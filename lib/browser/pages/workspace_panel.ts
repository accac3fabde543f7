// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// The workspace panel's frame in the browser: open/close (remembered in the `hermes_panel`
// cookie the server reads, so a reload paints it as it was; phones use a slide-over that is
// not remembered and makes the page behind it inert) and the `hermes:*` events that drive
// it. What is inside (tree, git badge, preview) is lib/browser/workspace_browser.ts, imported when
// the panel first opens; the highlighter and markdown renderer load later still, only when a
// preview needs them.
import { onHermesEvent } from "../../shared/ui_events.ts";
import { PANEL_VIEWS, type PanelView } from "../workspace/panel_views.ts";
import { t } from "../../i18n/t.ts";

const PANEL_COOKIE = "hermes_panel";
/** Same breakpoint as static/style.css's phone layout (< 640 px). */
const PHONE_QUERY = "(max-width: 639px)";

const app = () => document.querySelector<HTMLElement>(".app");
const panel = () => document.getElementById("workspace-panel");
const sessionId = () => panel()?.dataset.sessionId ?? null;
const phone = () => matchMedia(PHONE_QUERY).matches;

let loaded: Promise<typeof import("../workspace_browser.ts")> | undefined;

/** The panel's contents module, imported (and wired) once. */
function browser() {
  loaded ??= import("../workspace_browser.ts").then((m) => {
    m.attach();
    return m;
  });
  return loaded;
}

export function panelIsOpen(): boolean {
  const a = app();
  if (!a) return false;
  return phone() ? a.dataset.panelPhone === "open" : a.dataset.workspacePanel === "open";
}

/** While the phone slide-over is open, the page behind it is out of reach. */
function setBehindInert(inert: boolean): void {
  for (const sel of [".conversation", ".sidebar"]) {
    const node = document.querySelector<HTMLElement>(sel);
    if (node) node.inert = inert;
  }
}

async function setOpen(open: boolean, opts: { focus?: boolean } = {}): Promise<void> {
  const a = app();
  if (!a) return;
  if (phone()) {
    a.dataset.panelPhone = open ? "open" : "closed";
    setBehindInert(open);
  } else {
    a.dataset.workspacePanel = open ? "open" : "closed";
    document.cookie = `${PANEL_COOKIE}=${open ? "open" : "closed"}; Path=/; Max-Age=31536000; ` +
      "SameSite=Lax";
  }
  for (
    const btn of document.querySelectorAll<HTMLElement>('.topbar [data-action="toggle-workspace"]')
  ) {
    btn.setAttribute("aria-expanded", String(open));
    btn.setAttribute("aria-label", open ? t("workspace.hideFiles") : t("workspace.showFiles"));
  }
  if (open) {
    const b = await browser();
    b.showFiles();
    if (opts.focus) b.focusTarget()?.focus({ preventScroll: true });
  } else if (opts.focus && panel()?.contains(document.activeElement)) {
    document.querySelector<HTMLElement>('.topbar [data-action="toggle-workspace"]')?.focus();
  }
}

const mounted = new Map<string, Promise<PanelView | null>>();

/** Show the panel view `name` (Files, Git, Terminal), mounting its module on first show. */
async function showView(name: string, opts: { focus?: boolean } = {}): Promise<void> {
  const p = panel();
  if (!p) return;
  for (const tab of p.querySelectorAll<HTMLElement>("[data-panel-tab]")) {
    const on = tab.dataset.panelTab === name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && opts.focus) tab.focus();
  }
  for (const view of p.querySelectorAll<HTMLElement>("[data-panel-view]")) {
    view.hidden = view.dataset.panelView !== name;
  }
  p.dataset.view = name;
  const load = PANEL_VIEWS[name];
  const host = p.querySelector<HTMLElement>(`[data-panel-view="${name}"]`);
  if (!load || !host) return;
  const ctx = { sessionId: sessionId() };
  if (!mounted.has(name)) {
    mounted.set(
      name,
      load().then(async (view) => {
        await view.mount(host, ctx);
        return view;
      }).catch((err) => {
        host.textContent = t("workspace.viewLoadFailed", { error: (err as Error).message });
        return null;
      }),
    );
  } else (await mounted.get(name))?.shown?.(ctx);
}

function init(): void {
  const p = panel();
  if (!p) return;

  p.querySelector("[data-panel-tabs]")?.addEventListener("click", (e) => {
    const tab = (e.target as Element).closest<HTMLElement>("[data-panel-tab]");
    if (tab) void showView(tab.dataset.panelTab!);
  });
  p.querySelector("[data-panel-tabs]")?.addEventListener("keydown", (e) => {
    const ev = e as KeyboardEvent;
    if (ev.key !== "ArrowRight" && ev.key !== "ArrowLeft") return;
    // The tabs as shown: hidden_tabs and tab_order (static/page_prefs.css) apply.
    const tabs = [...p.querySelectorAll<HTMLElement>("[data-panel-tab]")]
      .filter((tab) => tab.getClientRects().length > 0)
      .sort((a, b) => Number(getComputedStyle(a).order) - Number(getComputedStyle(b).order));
    const at = tabs.findIndex((tab) => tab.getAttribute("aria-selected") === "true");
    const next = tabs[(at + (ev.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    void showView(next.dataset.panelTab!, { focus: true });
  });

  document.addEventListener("click", (e) => {
    // `workspace://path` links in answers open the file in the panel; never followed as links.
    const link = (e.target as Element).closest<HTMLAnchorElement>('a[href^="workspace:" i]');
    if (link) {
      e.preventDefault();
      // The URL rules load on the first such click (lib/markdown/urls.ts: not needed to read).
      void import("../../markdown/urls.ts").then(({ workspacePathOf }) => {
        const path = workspacePathOf(link.getAttribute("href") ?? "");
        if (path) void setOpen(true).then(() => browser()).then((b) => b.openPreview(path));
      });
      return;
    }
    const btn = (e.target as Element).closest<HTMLElement>("[data-action]");
    const action = btn?.dataset.action;
    if (action === "toggle-workspace") {
      void setOpen(!panelIsOpen(), { focus: true });
    } else if (
      action === "panel-refresh" || action === "preview-close" || action === "preview-source"
    ) {
      void browser().then((b) => b.handleAction(action, btn!));
    }
  });

  // Closing on request (the phone scrim, Escape) hands focus back to the top bar toggle.
  onHermesEvent("hermes:workspace-panel", ({ open }) => void setOpen(open, { focus: !open }));
  onHermesEvent("hermes:open-file", async ({ path }) => {
    await setOpen(true);
    void (await browser()).openPreview(path);
  });
  // A run may have changed files: refresh what is on screen once it ends.
  onHermesEvent("hermes:chat-ended", ({ session_id }) => {
    if (session_id !== sessionId() || !panelIsOpen()) return;
    void browser().then((b) => b.reloadFiles());
  });
  onHermesEvent("hermes:session-updated", async ({ session_id, workspace }) => {
    // A new chat's panel (no session yet) adopts the session its composer just created.
    const p = panel();
    if (p && !sessionId()) {
      p.dataset.sessionId = session_id;
      delete p.dataset.workspace;
      p.querySelector("[data-new-chat-note]")?.remove();
    }
    if (session_id !== sessionId()) return;
    const home = document.querySelector<HTMLElement>(".topbar")?.dataset.home?.replace(/\/+$/, "");
    const label = home && (workspace === home || workspace.startsWith(home + "/"))
      ? "~" + workspace.slice(home.length)
      : workspace;
    const b = await browser();
    b.resetWorkspace(label);
    if (panelIsOpen()) b.showFiles();
    for (const view of mounted.values()) (await view)?.sessionChanged?.({ sessionId: sessionId() });
  });
  // Leaving the phone layout drops the slide-over (the desktop state is the cookie's).
  matchMedia(PHONE_QUERY).addEventListener("change", (e) => {
    if (e.matches || app()!.dataset.panelPhone !== "open") return;
    app()!.dataset.panelPhone = "closed";
    setBehindInert(false);
  });

  if (panelIsOpen()) void browser().then((b) => b.showFiles());
}

if (typeof document !== "undefined") init();
