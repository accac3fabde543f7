// The central column's top bar: the conversation title with its context (workspace, model)
// and the workspace panel toggle. Conversation context only; global chrome lives in the
// sidebar footer (seed ARCHITECTURE §1).
import { Icon } from "./Icon.tsx";

export interface TopbarProps {
  title: string;
  /** Workspace path as shown to the user (home folded to `~`). */
  workspace: string | null;
  model: string | null;
  projectName?: string | null;
  projectColor?: string | null;
}

/** `/home/ada/src/app` → `~/src/app` when under `home`. */
export function displayPath(path: string, home: string | null | undefined): string {
  const root = home?.replace(/\/+$/, "");
  if (root && (path === root || path.startsWith(root + "/"))) return "~" + path.slice(root.length);
  return path;
}

export function Topbar({ title, workspace, model, projectName, projectColor }: TopbarProps) {
  return (
    <header class="topbar">
      <div class="topbar-context">
        <h1 class="topbar-title" title={title}>{title}</h1>
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
          {workspace
            ? (
              <span class="topbar-workspace mono" title={workspace}>
                <Icon name="folder" size={12} />
                {workspace}
              </span>
            )
            : null}
          {model ? <span class="topbar-model mono">{model}</span> : null}
        </p>
      </div>
      <div class="topbar-actions">
        <button
          type="button"
          class="btn btn-icon"
          data-action="toggle-workspace"
          aria-controls="workspace-panel"
          aria-expanded="false"
          aria-label="Show workspace files"
          title="Workspace files"
        >
          <Icon name="panelRight" />
        </button>
      </div>
    </header>
  );
}
