// The central column's top bar: on phones the drawer button, then the conversation title with
// its context (project, workspace, model), then the theme toggle and the workspace panel
// toggle. Conversation context only; global chrome lives in the sidebar footer (seed
// ARCHITECTURE §1). lib/browser/pages/layout.ts keeps title/workspace/model in step with the page.
import { Icon } from "./Icon.tsx";

export interface TopbarProps {
  title: string;
  /** Workspace path as shown to the user (home folded to `~`). */
  workspace: string | null;
  model: string | null;
  projectName?: string | null;
  projectColor?: string | null;
  /** The workspace panel's state on first paint (aria-expanded of its toggle). */
  panelOpen?: boolean;
  /** The user's home folder, so the browser can fold a changed workspace to `~` too. */
  home?: string | null;
}

/** `/home/ada/src/app` → `~/src/app` when under `home`. */
export function displayPath(path: string, home: string | null | undefined): string {
  const root = home?.replace(/\/+$/, "");
  if (root && (path === root || path.startsWith(root + "/"))) return "~" + path.slice(root.length);
  return path;
}

export function Topbar(
  { title, workspace, model, projectName, projectColor, panelOpen = false, home }: TopbarProps,
) {
  return (
    <header class="topbar" data-home={home ?? undefined}>
      <button
        type="button"
        class="btn btn-icon topbar-drawer-btn"
        data-action="toggle-sidebar"
        aria-controls="sidebar"
        aria-expanded="false"
        aria-label="Show chats"
        title="Chats"
      >
        <Icon name="menu" />
      </button>
      <div class="topbar-context">
        <h1 class="topbar-title" title={title} data-topbar-title>{title}</h1>
        <p class="topbar-meta">
          {projectName
            ? (
              <span class="topbar-project">
                <span
                  class="project-dot"
                  style={projectColor ? `--dot:${projectColor}` : undefined}
                />
                {projectName}
              </span>
            )
            : null}
          <span
            class="topbar-workspace mono"
            title={workspace ?? undefined}
            hidden={!workspace}
            data-topbar-workspace
          >
            <Icon name="folder" size={12} />
            <span class="topbar-workspace-path">{workspace}</span>
          </span>
          <span class="topbar-model mono" hidden={!model} data-topbar-model>{model}</span>
        </p>
      </div>
      <div class="topbar-actions">
        <button
          type="button"
          class="btn btn-icon theme-toggle"
          data-action="toggle-theme"
          aria-label="Switch theme"
          title="Switch theme"
        >
          <Icon name="sun" class="icon theme-icon-light" />
          <Icon name="moon" class="icon theme-icon-dark" />
        </button>
        <button
          type="button"
          class="btn btn-icon"
          data-action="toggle-workspace"
          aria-controls="workspace-panel"
          aria-expanded={panelOpen ? "true" : "false"}
          aria-label={panelOpen ? "Hide workspace files" : "Show workspace files"}
          title="Workspace files"
        >
          <Icon name="panelRight" />
        </button>
      </div>
    </header>
  );
}
