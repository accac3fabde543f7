// The console's frame: sidebar on the left, the conversation column (top bar, transcript,
// composer) in the middle, the workspace panel on the right. Pages fill the transcript slot;
// the composer island is mounted here so every conversation view gets the same command
// surface. Layout state lives in data attributes on `.app` that the server renders (the
// panel's open state comes from a cookie), so the first frame is already the right one.
// Phones (< 640 px): the sidebar is a drawer and the panel a slide-over, above a scrim.
import type { ComponentChildren } from "preact";
import Composer, { type ComposerProps } from "../islands/Composer.tsx";
import { usePageScripts } from "../lib/server/page_scripts.ts";
import { Sidebar, type SidebarProps } from "./Sidebar.tsx";
import { Topbar, type TopbarProps } from "./Topbar.tsx";
import { t } from "../lib/i18n/t.ts";
import { WorkspacePanel, type WorkspacePanelProps } from "./WorkspacePanel.tsx";

export interface AppShellProps {
  sidebar: SidebarProps;
  topbar: TopbarProps;
  /** The workspace panel; open on first paint when `panelOpen`. */
  panel: WorkspacePanelProps;
  panelOpen: boolean;
  /** Session the composer sends to (null: it creates one). */
  sessionId: string | null;
  /** Project a new session is filed under (the active project filter). */
  projectId: string | null;
  /** The composer's context: model, workspace, send key, sandbox status, active run. */
  composer?: Omit<ComposerProps, "sessionId" | "projectId">;
  children: ComponentChildren;
}

export function AppShell(
  { sidebar, topbar, panel, panelOpen, sessionId, projectId, composer, children }: AppShellProps,
) {
  usePageScripts();
  return (
    <div
      class="app"
      data-workspace-panel={panelOpen ? "open" : "closed"}
      data-drawer="closed"
      data-panel-phone="closed"
    >
      <Sidebar {...sidebar} />
      <main class="conversation">
        <Topbar {...topbar} panelOpen={panelOpen} />
        <section
          class="transcript"
          role="log"
          aria-live="off"
          aria-label={t("shell.conversation")}
          data-session-id={sessionId ?? undefined}
        >
          <div class="transcript-inner">{children}</div>
        </section>
        <div class="composer-dock">
          <Composer
            modelLabel={topbar.model}
            {...composer}
            sessionId={sessionId}
            projectId={projectId}
          />
        </div>
      </main>
      <WorkspacePanel {...panel} />
      <div class="app-scrim" data-action="close-overlays" aria-hidden="true" />
      {/* What screen readers are told once (lib/browser/announcer.ts), never token by token. */}
      <div class="visually-hidden" role="status" aria-live="polite" data-announce="polite" />
      <div
        class="visually-hidden"
        aria-live="assertive"
        aria-atomic="true"
        data-announce="assertive"
      />
    </div>
  );
}
