// The console's frame: sidebar on the left, the conversation column (top bar, transcript,
// composer) in the middle. Pages fill the transcript slot; the composer island is mounted
// here so every conversation view gets the same command surface.
import type { ComponentChildren } from "preact";
import Composer from "../islands/Composer.tsx";
import { Sidebar, type SidebarProps } from "./Sidebar.tsx";
import { Topbar, type TopbarProps } from "./Topbar.tsx";
import { usePageScripts } from "../lib/page_scripts.ts";

export interface AppShellProps {
  sidebar: SidebarProps;
  topbar: TopbarProps;
  /** Session the composer sends to (null: it creates one). */
  sessionId: string | null;
  /** Project a new session is filed under (the active project filter). */
  projectId: string | null;
  children: ComponentChildren;
}

export function AppShell({ sidebar, topbar, sessionId, projectId, children }: AppShellProps) {
  usePageScripts();
  return (
    <div class="app" data-workspace-panel="closed">
      <Sidebar {...sidebar} />
      <main class="conversation">
        <Topbar {...topbar} />
        <section
          class="transcript"
          aria-label="Conversation"
          data-session-id={sessionId ?? undefined}
        >
          <div class="transcript-inner">{children}</div>
        </section>
        <div class="composer-dock">
          <Composer sessionId={sessionId} projectId={projectId} modelLabel={topbar.model} />
        </div>
      </main>
    </div>
  );
}
