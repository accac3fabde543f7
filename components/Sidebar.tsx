// The left sidebar: New chat, search, project chips, the sessions grouped by recency (or the
// search results, or the archive) and the footer control button. Server-rendered; every
// control also works as a plain link or GET form, so it is usable without JavaScript.
// lib/browser/pages/sidebar.ts adds the menus and swaps `SidebarBody` (rendered again by
// /partials/sidebar) after each action, so the list refreshes without a page reload. The list
// is paged (lib/sessions/session_page.ts): the first page is rendered here, the script fetches
// the next ones (`SidebarPage`) as the user scrolls and keeps only the visible rows in the DOM.
import type { AppContext } from "../lib/server/app_context.ts";
import { listProjects, type Project } from "../lib/sessions/projects.ts";
import { highlightSegments } from "../lib/shared/search_highlight.ts";
import {
  SEARCH_MAX_LIMIT,
  type SearchHit,
  searchSessions,
} from "../lib/sessions/session_search.ts";
import { archivedCount, type SessionRow } from "../lib/sessions/sessions.ts";
import {
  cursorAfter,
  listSessionPage,
  type SessionFilter,
  viewerUtcOffset,
} from "../lib/sessions/session_page.ts";
import {
  formatSessionTime,
  localUtcOffsetMinutes,
  type SessionGroupKey,
  sessionGroupLabel,
} from "../lib/shared/session_groups.ts";
import { Icon } from "./Icon.tsx";

/** A listed session; search results also say what matched. */
export type SidebarRow = SessionRow & Partial<Pick<SearchHit, "match_type" | "match_preview">>;

export interface SidebarBodyProps {
  sessions: SidebarRow[];
  projects: Project[];
  /** Session open in the main column, highlighted in the list. */
  activeSessionId: string | null;
  /** Project filter in effect (`?project=`), if any. */
  activeProjectId: string | null;
  /** Search in effect (`?q=`): titles and message text. */
  query: string;
  /** The archive view (`?archived=1`): archived sessions only. */
  archivedView: boolean;
  archivedCount: number;
  /** Epoch seconds and the zone offset the groups and times are computed for. */
  now: number;
  utcOffsetMinutes: number;
  /** The recency group of each row (paged list; empty for search results). */
  rowGroups: SessionGroupKey[];
  /** Cursor of the next page, null at the end; `count` = rows of every page together. */
  nextCursor: string | null;
  count: number;
  /** The first row starts a new group (always on the first page; on later pages unless the
   * page continues the previous page's last group). */
  firstStartsGroup: boolean;
}

export type SidebarProps = SidebarBodyProps;

/** Longest search query honoured (longer input is cut). */
const MAX_QUERY = 200;
/** Rows in the server-rendered first page and in each page the script fetches. */
export const SIDEBAR_PAGE = 80;
/** Search results the sidebar shows at most (the label gives the total). */
export const SIDEBAR_RESULTS = 100;

/** Build a `/` URL keeping only the given non-empty parameters. */
export function homeHref(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const s = search.toString();
  return s ? `/?${s}` : "/";
}

/**
 * The sidebar's data for the request's query parameters (`session`, `project`, `q`,
 * `archived`): the page and the partial route read the same state the same way. A query
 * searches titles and message text (full-text); unknown project ids are ignored.
 */
export function loadSidebar(
  app: Pick<AppContext, "db" | "clock">,
  params: URLSearchParams,
  activeSessionId: string | null,
  cookieHeader: string | null = null,
): SidebarBodyProps {
  const { db, clock } = app;
  const query = (params.get("q") ?? "").trim().slice(0, MAX_QUERY);
  const archivedView = params.get("archived") === "1";
  const projects = listProjects(db);
  const projectParam = params.get("project");
  const activeProjectId = projects.some((p) => p.project_id === projectParam) ? projectParam : null;
  const now = clock();
  const utcOffsetMinutes = viewerUtcOffset(params, cookieHeader, localUtcOffsetMinutes(now));
  const base = { projects, activeSessionId, activeProjectId, query, archivedView, now };
  if (query) {
    // The sidebar shows the best SIDEBAR_RESULTS matches (its DOM stays small) and says how
    // many there are in all; narrowing the search finds the rest.
    const filtered = archivedView || activeProjectId;
    const found = searchSessions(db, query, {
      content: true,
      limit: filtered ? SEARCH_MAX_LIMIT : SIDEBAR_RESULTS,
    });
    const rows: SidebarRow[] = found.sessions
      .filter((s) => !archivedView || s.archived)
      .filter((s) => !activeProjectId || s.project_id === activeProjectId);
    return {
      ...base,
      sessions: rows.slice(0, SIDEBAR_RESULTS),
      archivedCount: archivedCount(db),
      utcOffsetMinutes,
      rowGroups: [],
      nextCursor: null,
      count: filtered ? rows.length : found.count,
      firstStartsGroup: true,
    };
  }
  const filter: SessionFilter = {
    archived: archivedView ? "only" : "exclude",
    project: activeProjectId ?? undefined,
  };
  const cursor = params.get("cursor");
  const page = listSessionPage(db, filter, {
    limit: SIDEBAR_PAGE,
    cursor,
    now,
    utcOffsetMinutes,
  });
  return {
    ...base,
    sessions: page.sessions,
    archivedCount: archivedCount(db),
    utcOffsetMinutes,
    rowGroups: page.row_groups,
    nextCursor: page.next_cursor,
    count: page.count,
    firstStartsGroup: page.groups[0]?.start === 0,
  };
}

/** `text` with the words `query` matched wrapped in <mark> (every part escaped by Preact). */
function Highlighted({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlightSegments(text, query).map((s, i) =>
        s.match ? <mark key={i}>{s.text}</mark> : s.text
      )}
    </>
  );
}

function SessionItem(
  { s, props, color, group }: {
    s: SidebarRow;
    props: SidebarBodyProps;
    color: string | null;
    group?: SessionGroupKey;
  },
) {
  const { query, now, activeProjectId, archivedView } = props;
  const href = homeHref({
    session: s.session_id,
    project: activeProjectId,
    archived: archivedView ? "1" : null,
  });
  const snippet = query && s.match_type === "content" && s.match_preview ? s.match_preview : null;
  return (
    <li
      class="session-row"
      data-session-id={s.session_id}
      data-title={s.title}
      data-pinned={s.pinned ? "true" : "false"}
      data-archived={s.archived ? "true" : "false"}
      data-project-id={s.project_id ?? ""}
      data-streaming={s.is_streaming ? "true" : undefined}
      data-g={group}
      data-updated={query ? undefined : String(s.updated_at)}
      data-cursor={query ? undefined : cursorAfter(s)}
    >
      <a
        class="session-item"
        href={href}
        aria-current={s.session_id === props.activeSessionId ? "page" : undefined}
        data-session-id={s.session_id}
      >
        <span
          class={color ? "project-dot" : "project-dot project-dot-none"}
          style={color ? `--dot:${color}` : undefined}
          aria-hidden="true"
        />
        <span class="session-text">
          <span class="session-title">
            {query ? <Highlighted text={s.title} query={query} /> : s.title}
          </span>
          {snippet
            ? (
              <span class="session-snippet" data-match="content">
                <Highlighted text={snippet} query={query} />
              </span>
            )
            : null}
        </span>
        {s.archived && !archivedView ? <span class="session-tag">Archived</span> : null}
        {s.is_streaming
          ? <span class="session-live" title="Running" aria-label="Running" />
          : (
            <time class="session-time" dateTime={new Date(s.updated_at * 1000).toISOString()}>
              {formatSessionTime(s.updated_at, now, props.utcOffsetMinutes)}
            </time>
          )}
      </a>
      <button
        type="button"
        class="session-menu-btn"
        data-action="session-menu"
        aria-haspopup="menu"
        aria-label={`Options for ${s.title}`}
        title="Options"
      >
        <Icon name="more" size={16} stroke-width="3" />
      </button>
    </li>
  );
}

/** Project chips: filter links in each project's colour, plus "New project". */
function ProjectChips(props: SidebarBodyProps) {
  const { projects, activeProjectId, query, archivedView } = props;
  const archived = archivedView ? "1" : null;
  return (
    <nav class="project-chips" aria-label="Projects" data-project-chips>
      {projects.length > 0
        ? (
          <a
            class="chip project-chip"
            href={homeHref({ q: query, archived })}
            aria-current={activeProjectId ? undefined : "true"}
          >
            All
          </a>
        )
        : null}
      {projects.map((p) => (
        <a
          key={p.project_id}
          class="chip project-chip"
          href={homeHref({ project: p.project_id, q: query, archived })}
          aria-current={p.project_id === activeProjectId ? "true" : undefined}
          data-project-id={p.project_id}
          data-name={p.name}
          data-color={p.color ?? ""}
          title={`${p.name} (right-click to edit)`}
        >
          <span class="project-dot" style={p.color ? `--dot:${p.color}` : undefined} />
          <span class="chip-label">{p.name}</span>
        </a>
      ))}
      <button
        type="button"
        class="chip project-chip project-chip-new"
        data-action="project-create"
        aria-haspopup="dialog"
        title="New project"
      >
        <Icon name="plus" size={12} />
        <span class={projects.length ? "visually-hidden" : "chip-label"}>New project</span>
      </button>
    </nav>
  );
}

/**
 * Rows in runs of the same recency group, each run a section; a run gets its header unless it
 * continues the previous page's last group (`firstHasHeader` false for later pages).
 */
function GroupSections(
  props: SidebarBodyProps & {
    row: (s: SidebarRow, i: number) => preact.JSX.Element;
  },
) {
  const runs: Array<{ key: SessionGroupKey; start: number; end: number }> = [];
  props.rowGroups.forEach((g, i) => {
    const last = runs.at(-1);
    if (last && last.key === g) last.end = i + 1;
    else runs.push({ key: g, start: i, end: i + 1 });
  });
  return (
    <>
      {runs.map((r, n) => (
        <section class="session-group" key={`${r.key}-${r.start}`} data-group={r.key}>
          {n > 0 || props.firstStartsGroup
            ? <h2 class="session-group-label">{sessionGroupLabel(r.key)}</h2>
            : null}
          <ul>
            {props.sessions.slice(r.start, r.end).map((s, i) =>
              props.row(s, r.start + i)
            )}
          </ul>
        </section>
      ))}
    </>
  );
}

/**
 * A later page of the list (GET /partials/sidebar?cursor=…): its rows in group sections, the
 * header of a group left out when the page continues it (the server decides, from the cursor).
 */
export function SidebarPage(props: SidebarBodyProps) {
  const colorOf = new Map(props.projects.map((p) => [p.project_id, p.color]));
  const row = (s: SidebarRow, i: number) => (
    <SessionItem
      key={s.session_id}
      s={s}
      props={props}
      color={colorOf.get(s.project_id!) ?? null}
      group={props.rowGroups[i]}
    />
  );
  return (
    <div
      data-sidebar-page
      data-next-cursor={props.nextCursor ?? ""}
      data-count={String(props.count)}
    >
      <GroupSections {...props} row={row} />
    </div>
  );
}

/**
 * The part of the sidebar that changes with the data: chips, list, archive toggle. The
 * partial route renders exactly this, and lib/browser/pages/sidebar.ts swaps it in place.
 */
export function SidebarBody(props: SidebarBodyProps) {
  const { sessions, projects, query, archivedView, archivedCount, activeProjectId } = props;
  const colorOf = new Map(projects.map((p) => [p.project_id, p.color]));
  const activeProject = projects.find((p) => p.project_id === activeProjectId) ?? null;
  const row = (s: SidebarRow, i?: number) => (
    <SessionItem
      key={s.session_id}
      s={s}
      props={props}
      color={colorOf.get(s.project_id!) ?? null}
      group={i === undefined ? undefined : props.rowGroups[i]}
    />
  );
  const back = homeHref({ project: activeProjectId, q: query });

  let list;
  if (sessions.length === 0) {
    list = (
      <p class="session-list-empty">
        {query
          ? (
            <>
              No chats match “{query}”{activeProject ? <>&nbsp;in {activeProject.name}</> : null}.
            </>
          )
          : archivedView
          ? "No archived chats."
          : activeProject
          ? <>No chats in {activeProject.name} yet.</>
          : "Your conversations will appear here."}
      </p>
    );
  } else if (query) {
    list = (
      <section class="session-group" data-group="results">
        <h2 class="session-group-label">
          {props.count > sessions.length
            ? `${sessions.length} of ${props.count} results`
            : sessions.length === 1
            ? "1 result"
            : `${sessions.length} results`}
        </h2>
        <ul>{sessions.map(row)}</ul>
      </section>
    );
  } else {
    list = (
      <div
        class="session-vlist"
        data-vlist
        data-next-cursor={props.nextCursor ?? ""}
        data-count={String(props.count)}
        data-tz={String(props.utcOffsetMinutes)}
      >
        <GroupSections {...props} row={row} />
      </div>
    );
  }

  return (
    <div
      class="sidebar-body"
      data-sidebar-body
      data-archived-view={archivedView ? "true" : "false"}
      data-archived-count={String(archivedCount)}
      data-query={query}
    >
      <ProjectChips {...props} />
      <nav class="session-list" aria-label="Conversations">
        {archivedView
          ? (
            <div class="archive-head">
              <a class="archive-back" href={back} data-action="archive-view" data-archived="0">
                <Icon name="arrowLeft" size={14} />
                <span>Chats</span>
              </a>
              <span class="archive-title">
                <Icon name="archive" size={12} />
                Archived · {archivedCount}
              </span>
            </div>
          )
          : null}
        {list}
        {!archivedView && archivedCount > 0
          ? (
            <a
              class="archive-toggle"
              href={homeHref({ project: activeProjectId, q: query, archived: "1" })}
              data-action="archive-view"
              data-archived="1"
            >
              <Icon name="archive" size={12} />
              <span>Archived</span>
              <span class="archive-count">{archivedCount}</span>
            </a>
          )
          : null}
      </nav>
    </div>
  );
}

export function Sidebar(props: SidebarProps) {
  const { activeProjectId, query, archivedView } = props;
  return (
    <aside class="sidebar" id="sidebar" aria-label="Chats" data-sidebar>
      <div class="sidebar-head">
        <a class="btn btn-new-chat" href={homeHref({ project: activeProjectId })}>
          <Icon name="newChat" />
          <span>New chat</span>
        </a>
        <form class="sidebar-search" role="search" method="get" action="/" data-sidebar-search>
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
            maxLength={MAX_QUERY}
          />
          {activeProjectId ? <input type="hidden" name="project" value={activeProjectId} /> : null}
          {archivedView ? <input type="hidden" name="archived" value="1" /> : null}
        </form>
        <p class="sidebar-notice" role="status" aria-live="polite" data-sidebar-notice hidden />
      </div>

      <SidebarBody {...props} />

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
