// Browser-safe: imports nothing from Deno or the database.
// The workspace panel's views besides Files (Git, Terminal): each is a module loaded the first
// time its tab opens, mounted once into its section, and told when it is shown again. One entry
// per view; the modules own everything inside their section.

/** What a view module exports. */
export interface PanelView {
  /** Build the view inside `host` (called once, on first show). */
  mount(host: HTMLElement, ctx: { sessionId: string | null }): void | Promise<void>;
  /** The tab became visible again (refresh what may be stale). */
  shown?(ctx: { sessionId: string | null }): void;
  /** The panel switched to another session (or to none). */
  sessionChanged?(ctx: { sessionId: string | null }): void;
}

/** The lazily loaded modules, by the `data-panel-view` name of their section. */
export const PANEL_VIEWS: Record<string, () => Promise<PanelView>> = {
  terminal: () => import("./terminal_view.ts"),
  git: () => import("./git_view.ts"),
};
