// The left sidebar: New chat, search, project chips, the sessions grouped by recency (or the
// search results, or the archive) and the footer control button. Server-rendered; every
// control also works as a plain link or GET form, so it is usable without JavaScript.
// lib/browser/pages/sidebar.ts adds the menus and swaps `SidebarBody` (rendered again by
// /partials/sidebar) after each action, so the list refreshes without a page reload. The list
// is paged (lib/sessions/session_page.ts): the first page is rendered here, the script fetches
// the next ones (`SidebarPage`) as the user scrolls and keeps only the visible rows in the DOM.
import type { AppContext } from "../lib/server/app_context.ts";
import { listProjects } from "../lib/sessions/projects.ts";
import { SEARCH_MAX_LIMIT, searchSessions } from "../lib/sessions/session_search.ts";
import { sql } from "../lib/storage/db.ts";
import { readPreferences } from "../lib/settings/stored_settings.ts";
import {
  countSessions,
  listSessionPage,
  type SessionFilter,
  viewerUtcOffset,
} from "../lib/sessions/session_page.ts";
import { localUtcOffsetMinutes } from "../lib/shared/session_groups.ts";
import { Icon } from "./Icon.tsx";
import { formatNumber, t } from "../lib/i18n/t.ts";
import { profileNames } from "../lib/agent/profiles.ts";
import {
  GroupSections,
  homeHref,
  ProjectChips,
  SessionItem,
  type SidebarBodyProps,
  SidebarPage,
  type SidebarRow,
} from "./SidebarRows.tsx";

export { homeHref, SidebarPage };
export type { SidebarBodyProps, SidebarRow };
export type SidebarProps = SidebarBodyProps;

/** Longest search query honoured (longer input is cut). */
const MAX_QUERY = 200;
/** Rows in the server-rendered first page and in each page the script fetches. */
export const SIDEBAR_PAGE = 80;
/** Search results the sidebar shows at most (the label gives the total). */
export const SIDEBAR_RESULTS = 100;

/**
 * The sidebar's data for the request's query parameters (`session`, `project`, `q`,
 * `archived`): the page and the partial route read the same state the same way. A query
 * searches titles and message text (full-text); unknown project ids are ignored.
 */
export async function loadSidebar(
  app: Pick<AppContext, "db" | "clock" | "config">,
  params: URLSearchParams,
  activeSessionId: string | null,
  cookieHeader: string | null = null,
): Promise<SidebarBodyProps> {
  const { db, clock } = app;
  const query = (params.get("q") ?? "").trim().slice(0, MAX_QUERY);
  const archivedView = params.get("archived") === "1";
  const projects = await listProjects(db);
  const projectParam = params.get("project");
  const activeProjectId = projects.some((p) => p.project_id === projectParam) ? projectParam : null;
  const now = clock();
  const utcOffsetMinutes = viewerUtcOffset(params, cookieHeader, localUtcOffsetMinutes(now));
  // The Tasks and profile chips (lib/tasks, lib/agent/profiles.ts): filters on the server.
  const profiles = profileNames(app.config);
  const profileParam = params.get("profile");
  const activeProfile = profileParam && profiles.includes(profileParam) ? profileParam : null;
  const tasksView = params.get("tasks") === "1";
  // `show_cron_sessions` off: task sessions leave the list (the Tasks chip still shows them).
  const showTaskSessions = (await readPreferences(db)).show_cron_sessions !== false;
  const filterChoices = {
    tasks: !!(await db.get(sql`SELECT 1 AS one FROM cron_jobs LIMIT 1`)) ||
      !!(await db.get(sql`SELECT 1 AS one FROM sessions WHERE cron_job_id IS NOT NULL LIMIT 1`)),
    profiles,
  };
  // The archive's total (what archivedCount() in sessions.ts answers), read asynchronously.
  const archivedTotal = await countSessions(db, { archived: "only" });
  const base = {
    projects,
    activeSessionId,
    activeProjectId,
    query,
    archivedView,
    now,
    tasksView,
    activeProfile,
    filterChoices,
  };
  if (query) {
    // The sidebar shows the best SIDEBAR_RESULTS matches (its DOM stays small) and says how
    // many there are in all; narrowing the search finds the rest.
    const filtered = archivedView || activeProjectId;
    const found = await searchSessions(db, query, {
      content: true,
      limit: filtered ? SEARCH_MAX_LIMIT : SIDEBAR_RESULTS,
    });
    const rows: SidebarRow[] = found.sessions
      .filter((s) => !archivedView || s.archived)
      .filter((s) => !activeProjectId || s.project_id === activeProjectId);
    return {
      ...base,
      sessions: rows.slice(0, SIDEBAR_RESULTS),
      archivedCount: archivedTotal,
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
    ...(tasksView
      ? { tasks: "only" as const }
      : showTaskSessions
      ? {}
      : { tasks: "exclude" as const }),
    ...(activeProfile ? { profile: activeProfile } : {}),
  };
  const cursor = params.get("cursor");
  const page = await listSessionPage(db, filter, {
    limit: SIDEBAR_PAGE,
    cursor,
    now,
    utcOffsetMinutes,
  });
  return {
    ...base,
    sessions: page.sessions,
    archivedCount: archivedTotal,
    utcOffsetMinutes,
    rowGroups: page.row_groups,
    nextCursor: page.next_cursor,
    count: page.count,
    firstStartsGroup: page.groups[0]?.start === 0,
  };
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
          ? activeProject
            ? t("sidebar.noMatchInProject", { query, project: activeProject.name })
            : t("sidebar.noMatch", { query })
          : archivedView
          ? t("sidebar.noArchived")
          : activeProject
          ? t("sidebar.noChatsInProject", { project: activeProject.name })
          : t("sidebar.emptyList")}
      </p>
    );
  } else if (query) {
    list = (
      <section class="session-group" data-group="results">
        <h2 class="session-group-label">
          {props.count > sessions.length
            ? t("sidebar.resultsOf", { shown: sessions.length, count: props.count })
            : t("sidebar.results", { count: sessions.length })}
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
      <div class="session-list" role="group" aria-label={t("sidebar.conversations")}>
        {archivedView
          ? (
            <div class="archive-head">
              <a class="archive-back" href={back} data-action="archive-view" data-archived="0">
                <Icon name="arrowLeft" size={14} />
                <span>{t("sidebar.chats")}</span>
              </a>
              <span class="archive-title">
                <Icon name="archive" size={12} />
                {t("sidebar.archivedCount", { count: archivedCount })}
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
              <span>{t("sidebar.archived")}</span>
              <span class="archive-count">{formatNumber(archivedCount)}</span>
            </a>
          )
          : null}
      </div>
    </div>
  );
}

export function Sidebar(props: SidebarProps) {
  const { activeProjectId, query, archivedView } = props;
  return (
    <nav class="sidebar" id="sidebar" aria-label={t("sidebar.chats")} data-sidebar>
      <div class="sidebar-head">
        <a class="btn btn-new-chat" href={homeHref({ project: activeProjectId })}>
          <Icon name="newChat" />
          <span>{t("sidebar.newChat")}</span>
        </a>
        <form class="sidebar-search" role="search" method="get" action="/" data-sidebar-search>
          <Icon name="search" size={14} />
          <label class="visually-hidden" for="session-search">
            {t("sidebar.searchChats")}
          </label>
          <input
            id="session-search"
            type="search"
            name="q"
            value={query}
            placeholder={t("sidebar.searchChats")}
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
          class="btn btn-ghost approval-inbox-badge"
          data-approval-inbox
          aria-haspopup="dialog"
          hidden
        >
          <span class="approval-inbox-count" data-approval-inbox-count>0</span>{" "}
          <span data-approval-inbox-text>{t("sidebar.approvalsWaiting")}</span>
        </button>
        <button
          type="button"
          class="btn btn-ghost control-center-btn"
          data-action="control-center"
          aria-haspopup="dialog"
        >
          <span class="brand-mark" aria-hidden="true">H</span>
          <span>{t("common.appName")}</span>
          <Icon name="settings" size={14} class="icon control-center-icon" />
        </button>
      </footer>
    </nav>
  );
}
