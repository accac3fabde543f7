// The left sidebar: New chat, search, project chips, the sessions grouped by recency and the
// footer control button. Server-rendered; every control also works as a plain link or GET
// form, so the sidebar is usable before (and without) any JavaScript.
import type { Project } from "../lib/projects.ts";
import type { SessionRow } from "../lib/sessions.ts";
import { formatSessionTime, groupSessionsByDay } from "../lib/session_groups.ts";
import { Icon } from "./Icon.tsx";

export interface SidebarProps {
  sessions: SessionRow[];
  projects: Project[];
  /** Session open in the main column, highlighted in the list. */
  activeSessionId: string | null;
  /** Project filter in effect (`?project=`), if any. */
  activeProjectId: string | null;
  /** Title search in effect (`?q=`). */
  query: string;
  archivedCount: number;
  /** Epoch seconds and the zone offset the groups and times are computed for. */
  now: number;
  utcOffsetMinutes: number;
}

/** Build a `/` URL keeping only the given non-empty parameters. */
export function homeHref(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const s = search.toString();
  return s ? `/?${s}` : "/";
}

export function Sidebar(props: SidebarProps) {
  const { sessions, projects, activeSessionId, activeProjectId, query, now } = props;
  const groups = groupSessionsByDay(sessions, now, props.utcOffsetMinutes);
  const colorOf = new Map(projects.map((p) => [p.project_id, p.color]));
  const activeProject = projects.find((p) => p.project_id === activeProjectId) ?? null;
  const filtered = Boolean(query || activeProject);

  return (
    <aside class="sidebar" aria-label="Chats">
      <div class="sidebar-head">
        <a class="btn btn-new-chat" href={homeHref({ project: activeProjectId })}>
          <Icon name="newChat" />
          <span>New chat</span>
        </a>
        <form class="sidebar-search" role="search" method="get" action="/">
          <Icon name="search" size={14} />
          <label class="visually-hidden" for="session-search">Search chats</label>
          <input
            id="session-search"
            type="search"
            name="q"
            value={query}
            placeholder="Search chats"
            autocomplete="off"
            spellcheck={false}
          />
          {activeProjectId ? <input type="hidden" name="project" value={activeProjectId} /> : null}
        </form>
      </div>

      {projects.length > 0
        ? (
          <nav class="project-chips" aria-label="Projects">
            <a
              class="chip project-chip"
              href={homeHref({ q: query })}
              aria-current={activeProject ? undefined : "true"}
            >
              All
            </a>
            {projects.map((p) => (
              <a
                key={p.project_id}
                class="chip project-chip"
                href={homeHref({ project: p.project_id, q: query })}
                aria-current={p.project_id === activeProjectId ? "true" : undefined}
                data-project-id={p.project_id}
                title={p.name}
              >
                <span class="project-dot" style={p.color ? `--dot:${p.color}` : undefined} />
                <span class="chip-label">{p.name}</span>
              </a>
            ))}
          </nav>
        )
        : null}

      <nav class="session-list" aria-label="Conversations">
        {groups.length === 0
          ? (
            <p class="session-list-empty">
              {filtered
                ? <>No chats match{query ? <>&nbsp;“{query}”</> : null}.</>
                : "Your conversations will appear here."}
            </p>
          )
          : groups.map((g) => (
            <section class="session-group" key={g.key} data-group={g.key}>
              <h2 class="session-group-label">{g.label}</h2>
              <ul>
                {g.sessions.map((s) => {
                  const color = s.project_id ? colorOf.get(s.project_id) : null;
                  return (
                    <li key={s.session_id}>
                      <a
                        class="session-item"
                        href={homeHref({ session: s.session_id, project: activeProjectId })}
                        aria-current={s.session_id === activeSessionId ? "page" : undefined}
                        data-session-id={s.session_id}
                        data-streaming={s.is_streaming ? "" : undefined}
                      >
                        <span
                          class={color ? "project-dot" : "project-dot project-dot-none"}
                          style={color ? `--dot:${color}` : undefined}
                          aria-hidden="true"
                        />
                        <span class="session-title">{s.title}</span>
                        {s.is_streaming
                          ? <span class="session-live" title="Running" aria-label="Running" />
                          : (
                            <time
                              class="session-time"
                              dateTime={new Date(s.updated_at * 1000).toISOString()}
                            >
                              {formatSessionTime(s.updated_at, now, props.utcOffsetMinutes)}
                            </time>
                          )}
                      </a>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        {props.archivedCount > 0
          ? (
            <p class="session-archived-note">
              <Icon name="archive" size={12} />
              {props.archivedCount} archived
            </p>
          )
          : null}
      </nav>

      <footer class="sidebar-foot">
        <button
          type="button"
          class="btn btn-ghost control-center-btn"
          data-action="control-center"
          aria-haspopup="dialog"
        >
          <span class="brand-mark" aria-hidden="true">H</span>
          <span>Hermes Console</span>
          <Icon name="settings" size={14} class="icon control-center-icon" />
        </button>
      </footer>
    </aside>
  );
}
