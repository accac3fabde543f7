// The console at `/`: the sidebar's sessions and projects, and in the main column either the
// open conversation (`?session=<id>`) or the empty state inviting the first chat. The
// sidebar's filters are plain query parameters (`project`, `q`), so links and reloads keep
// the view and nothing needs JavaScript to work.
import type { Handlers, PageProps } from "../lib/file_router.ts";
import { listSessions, type SessionRow } from "../lib/sessions.ts";
import { findSession, fullSession } from "../lib/sessions.ts";
import { listProjects, type Project, projectSessionDefaults } from "../lib/projects.ts";
import type { StoredMessage } from "../lib/messages.ts";
import { localUtcOffsetMinutes } from "../lib/session_groups.ts";
import { AppShell } from "../components/AppShell.tsx";
import { EmptyState } from "../components/EmptyState.tsx";
import { MessageList } from "../components/MessageList.tsx";
import { displayPath } from "../components/Topbar.tsx";

/** How many of the latest messages the first paint of a conversation shows. */
const FIRST_PAINT_MESSAGES = 200;

interface HomeData {
  sessions: SessionRow[];
  archivedCount: number;
  projects: Project[];
  session: (SessionRow & { messages: StoredMessage[] }) | null;
  missingSessionId: string | null;
  projectId: string | null;
  query: string;
  now: number;
  defaultWorkspace: string;
  defaultModel: string | null;
  home: string;
}

export const handler: Handlers<HomeData> = {
  GET(_req, ctx) {
    const { db, clock, config } = ctx.app;
    const params = ctx.url.searchParams;
    const query = (params.get("q") ?? "").trim().slice(0, 200);
    const projects = listProjects(db);
    const projectParam = params.get("project");
    const projectId = projects.some((p) => p.project_id === projectParam) ? projectParam : null;

    const listed = listSessions(db);
    const needle = query.toLowerCase();
    const sessions = listed.sessions.filter((s) =>
      (!projectId || s.project_id === projectId) &&
      (!needle || s.title.toLowerCase().includes(needle))
    );

    const sessionId = params.get("session");
    const found = sessionId ? findSession(db, sessionId) : null;
    const session = found
      ? fullSession(db, found.session_id, { msgLimit: FIRST_PAINT_MESSAGES })
      : null;

    if (session) ctx.state.title = session.title;
    return ctx.render({
      sessions,
      archivedCount: listed.archived_count,
      projects,
      session,
      missingSessionId: sessionId && !found ? sessionId : null,
      projectId,
      query,
      now: clock(),
      defaultWorkspace: config.defaultWorkspace,
      defaultModel: config.defaultModel ?? null,
      home: config.home,
    }, sessionId && !found ? { status: 404 } : undefined);
  },
};

export default function Home({ data }: PageProps<HomeData>) {
  const { session, projects } = data;
  const project =
    projects.find((p) => p.project_id === (session ? session.project_id : data.projectId)) ?? null;
  const defaults = project && !session ? projectSessionDefaults(project) : null;
  const workspace = session?.workspace ?? defaults?.workspace ?? data.defaultWorkspace;
  const model = session?.model ?? defaults?.model ?? data.defaultModel;

  return (
    <AppShell
      sessionId={session?.session_id ?? null}
      projectId={session ? session.project_id : data.projectId}
      sidebar={{
        sessions: data.sessions,
        projects,
        activeSessionId: session?.session_id ?? null,
        activeProjectId: data.projectId,
        query: data.query,
        archivedCount: data.archivedCount,
        now: data.now,
        utcOffsetMinutes: localUtcOffsetMinutes(data.now),
      }}
      topbar={{
        title: session ? session.title : "New chat",
        workspace: displayPath(workspace, data.home),
        model,
        projectName: project?.name ?? null,
        projectColor: project?.color ?? null,
      }}
    >
      {session && session.messages.length > 0
        ? <MessageList sessionId={session.session_id} messages={session.messages} />
        : (
          <EmptyState
            workspace={displayPath(workspace, data.home)}
            model={model}
            projectName={project?.name ?? null}
            notice={data.missingSessionId
              ? "That chat no longer exists. It may have been deleted."
              : null}
          />
        )}
    </AppShell>
  );
}
