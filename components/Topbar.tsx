// The central column's top bar: on phones the drawer button, then the conversation title with
// its context (project, workspace, model), then the theme toggle and the workspace panel
// toggle. Conversation context only; global chrome lives in the sidebar footer (seed
// ARCHITECTURE §1). lib/browser/pages/layout.ts keeps title/workspace/model in step with the page,
// and the standing goal's quiet chip (lib/browser/goal_chip.ts) with the runs.
import { Icon } from "./Icon.tsx";
import { t } from "../lib/i18n/t.ts";
import {
  goalChipLabel,
  goalChipTitle,
  goalReasonLine,
  type GoalView,
} from "../lib/shared/goal_view.ts";

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
  /** The open session's standing goal (GET /api/goal's shape), if any. */
  goal?: GoalView | null;
}

/** `/home/ada/src/app` → `~/src/app` when under `home`. */
export function displayPath(path: string, home: string | null | undefined): string {
  const root = home?.replace(/\/+$/, "");
  if (root && (path === root || path.startsWith(root + "/"))) return "~" + path.slice(root.length);
  return path;
}

export function Topbar(
  { title, workspace, model, projectName, projectColor, panelOpen = false, home, goal = null }:
    TopbarProps,
) {
  return (
    <header class="topbar" data-home={home ?? undefined}>
      <button
        type="button"
        class="btn btn-icon topbar-drawer-btn"
        data-action="toggle-sidebar"
        aria-controls="sidebar"
        aria-expanded="false"
        aria-label={t("shell.showChats")}
        title={t("shell.chats")}
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
        <GoalChip goal={goal} />
        <button
          type="button"
          class="btn btn-icon context-ring"
          data-context-ring
          aria-label={t("shell.contextWindowUse")}
          hidden
        >
          {
            /* A ring drawn as two SVG circles (no gradients, DESIGN.md): the arc's length is the
              share in use, `--used` (0–100) set by lib/browser/context_ring.ts. */
          }
          <svg class="context-ring-dial" viewBox="0 0 16 16" aria-hidden="true">
            <circle class="context-ring-track" cx="8" cy="8" r="6" pathLength="100" />
            <circle class="context-ring-arc" cx="8" cy="8" r="6" pathLength="100" />
          </svg>
        </button>
        <button
          type="button"
          class="btn btn-icon theme-toggle"
          data-action="toggle-theme"
          aria-label={t("shell.switchTheme")}
          title={t("shell.switchTheme")}
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
          aria-label={panelOpen ? t("shell.hideWorkspaceFiles") : t("shell.showWorkspaceFiles")}
          title={t("shell.workspaceFiles")}
        >
          <Icon name="panelRight" />
        </button>
      </div>
    </header>
  );
}

/**
 * The standing goal as a quiet chip ("⊙ Goal · 2/20 active"); opening it shows the goal, its
 * subgoals as a checklist and the evaluator's last reason. Hidden when the chat has no goal.
 * lib/browser/goal_chip.ts fills the same hooks in the browser.
 */
export function GoalChip({ goal: g }: { goal: GoalView | null }) {
  const reason = g ? goalReasonLine(g) : "";
  return (
    <details class="goal-chip" data-goal-chip data-status={g?.status} hidden={!g}>
      <summary class="goal-chip-summary" title={g ? goalChipTitle(g) : undefined}>
        <span class="goal-chip-mark" aria-hidden="true">⊙</span>
        <span data-goal-label>{g ? goalChipLabel(g) : ""}</span>
        <span class="goal-chip-status" data-goal-status>{g?.status}</span>
      </summary>
      <div class="goal-pop">
        <p class="goal-pop-text" data-goal-text>{g?.goal}</p>
        <ul class="goal-subgoals" data-goal-subgoals hidden={!g?.subgoals.length}>
          {(g?.subgoals ?? []).map((s, i) => (
            <li key={i} data-done={s.done ? "true" : "false"}>
              <span aria-hidden="true">{s.done ? "☑" : "☐"}</span> {s.title}
            </li>
          ))}
        </ul>
        <p class="goal-pop-reason" data-goal-reason hidden={!reason}>{reason}</p>
      </div>
    </details>
  );
}
