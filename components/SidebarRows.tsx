// The sidebar's rows: one session item (title, snippet, time, its menu button), the recency
// group sections, and one page of them (`SidebarPage`, what lib/browser/pages/sidebar.ts fetches
// as the user scrolls), plus the project chips. Server-rendered; components/Sidebar.tsx holds
// the frame and loads the data.
import type { Project } from "../lib/sessions/projects.ts";
import { highlightSegments } from "../lib/shared/search_highlight.ts";
import type { SearchHit } from "../lib/sessions/session_search.ts";
import type { SessionRow } from "../lib/sessions/sessions.ts";
import { cursorAfter } from "../lib/sessions/session_page.ts";
import { type SessionGroupKey, startOfLocalDay } from "../lib/shared/session_groups.ts";
import { formatDate, t } from "../lib/i18n/t.ts";
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
  /** Only scheduled tasks' sessions (`?tasks=1`), and/or one profile's (`?profile=`). */
  tasksView?: boolean;
  activeProfile?: string | null;
  /** What the filter chips offer: a Tasks chip when tasks exist, profiles when there are 2+. */
  filterChoices?: { tasks: boolean; profiles: string[] };
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

/** Build a `/` URL keeping only the given non-empty parameters. */
export function homeHref(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const s = search.toString();
  return s ? `/?${s}` : "/";
}

/** The header of a recency group, in the page's language. */
const GROUP_LABELS: Record<SessionGroupKey, string> = {
  pinned: "sidebar.groupPinned",
  today: "sidebar.groupToday",
  yesterday: "sidebar.groupYesterday",
  week: "sidebar.groupWeek",
  older: "sidebar.groupOlder",
};

const DAY = 86_400;

/**
 * The short time a row shows, in the page's language: the clock today (`14:05`), `Yesterday`,
 * a weekday within the last week, `Mar 3` this year, `Mar 3, 2024` before. Same calendar
 * days as the groups (lib/shared/session_groups.ts), in the viewer's zone.
 */
export function sessionTime(at: number, now: number, utcOffsetMinutes: number): string {
  // Shifted into the viewer's zone, then read as UTC.
  const local = new Date((at + utcOffsetMinutes * 60) * 1000);
  const utc = { timeZone: "UTC" } as const;
  const today = startOfLocalDay(now, utcOffsetMinutes);
  if (at >= today) {
    return formatDate(local, { ...utc, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
  if (at >= today - DAY) return t("sidebar.yesterday");
  if (at >= today - 6 * DAY) return formatDate(local, { ...utc, weekday: "short" });
  const nowYear = new Date((now + utcOffsetMinutes * 60) * 1000).getUTCFullYear();
  const year = local.getUTCFullYear() === nowYear ? undefined : "numeric";
  return formatDate(local, { ...utc, month: "short", day: "numeric", year });
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

export function SessionItem(
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
          {/* The detailed density's second line (static/page_prefs.css shows it). */}
          <span class="session-meta">
            {t("prefs.rowMessages", { count: s.message_count })}
            {s.model ? ` · ${s.model}` : ""}
          </span>
          {snippet
            ? (
              <span class="session-snippet" data-match="content">
                <Highlighted text={snippet} query={query} />
              </span>
            )
            : null}
        </span>
        {s.archived && !archivedView
          ? <span class="session-tag">{t("sidebar.archivedTag")}</span>
          : null}
        {s.is_streaming
          ? (
            <span
              class="session-live"
              title={t("sidebar.running")}
              aria-label={t("sidebar.running")}
            />
          )
          : (
            <time class="session-time" dateTime={new Date(s.updated_at * 1000).toISOString()}>
              {sessionTime(s.updated_at, now, props.utcOffsetMinutes)}
            </time>
          )}
      </a>
      <button
        type="button"
        class="session-menu-btn"
        data-action="session-menu"
        aria-haspopup="menu"
        aria-label={t("sidebar.optionsFor", { title: s.title })}
        title={t("sidebar.options")}
      >
        <Icon name="more" size={16} stroke-width="3" />
      </button>
    </li>
  );
}

/** Project chips: filter links in each project's colour, plus "New project". */
export function ProjectChips(props: SidebarBodyProps) {
  const archived = props.archivedView ? "1" : null;
  return (
    <>
      <ProjectChipList {...props} archived={archived} />
      <ViewChips {...props} archived={archived} />
    </>
  );
}

/**
 * Scheduled tasks' sessions and the agent profiles, as chips beside the projects: shown only
 * when there is something to choose (a task ran; two profiles exist). Each keeps the open chat.
 */
function ViewChips(props: SidebarBodyProps & { archived: string | null }) {
  const choices = props.filterChoices;
  if (!choices || (!choices.tasks && choices.profiles.length < 2)) return null;
  const keep = {
    session: props.activeSessionId,
    project: props.activeProjectId,
    q: props.query,
    archived: props.archived,
  };
  return (
    <nav class="project-chips view-chips" aria-label={t("sidebar.filters")} data-view-chips>
      {choices.tasks
        ? (
          <a
            class="chip project-chip"
            href={homeHref({
              ...keep,
              tasks: props.tasksView ? null : "1",
              profile: props.activeProfile,
            })}
            aria-current={props.tasksView ? "true" : undefined}
            data-view="tasks"
          >
            <span class="chip-label">{t("sidebar.tasks")}</span>
          </a>
        )
        : null}
      {choices.profiles.length > 1
        ? choices.profiles.map((name) => (
          <a
            key={name}
            class="chip project-chip"
            href={homeHref({
              ...keep,
              tasks: props.tasksView ? "1" : null,
              profile: props.activeProfile === name ? null : name,
            })}
            aria-current={props.activeProfile === name ? "true" : undefined}
            data-view="profile"
            data-profile={name}
          >
            <span class="chip-label">{name}</span>
          </a>
        ))
        : null}
    </nav>
  );
}

function ProjectChipList(
  props: SidebarBodyProps & { archived: string | null },
) {
  const { projects, activeProjectId, query, archived } = props;
  const session = props.activeSessionId; // filtering keeps the open chat open
  return (
    <nav class="project-chips" aria-label={t("sidebar.projects")} data-project-chips>
      {projects.length > 0
        ? (
          <a
            class="chip project-chip"
            href={homeHref({ session, q: query, archived })}
            aria-current={activeProjectId ? undefined : "true"}
          >
            {t("sidebar.all")}
          </a>
        )
        : null}
      {projects.map((p) => (
        <a
          key={p.project_id}
          class="chip project-chip"
          href={homeHref({ session, project: p.project_id, q: query, archived })}
          aria-current={p.project_id === activeProjectId ? "true" : undefined}
          data-project-id={p.project_id}
          data-name={p.name}
          data-color={p.color ?? ""}
          title={t("sidebar.projectChipTitle", { name: p.name })}
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
        title={t("sidebar.newProject")}
      >
        <Icon name="plus" size={12} />
        <span class={projects.length ? "visually-hidden" : "chip-label"}>
          {t("sidebar.newProject")}
        </span>
      </button>
    </nav>
  );
}

/**
 * Rows in runs of the same recency group, each run a section; a run gets its header unless it
 * continues the previous page's last group (`firstHasHeader` false for later pages).
 */
export function GroupSections(
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
            ? <h2 class="session-group-label">{t(GROUP_LABELS[r.key])}</h2>
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
