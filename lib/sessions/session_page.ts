// One page of the sessions list: keyset paging on (pinned, updated_at, session_id), newest
// first, with the list's filters applied in SQL and the recency group of each row decided here.
// Invariants: never OFFSET (a page is found by the cursor's key, so rows inserted meanwhile
// never shift it: nothing is missed or repeated); a cursor is opaque and validated; a group
// header is emitted only where a row's group differs from the row before it (across pages too,
// since the cursor carries the previous row's key), so a page boundary never splits or repeats one.
import type { Db } from "../storage/db.ts";
import { ValidationError } from "../errors.ts";
import { COMPACT_COLUMNS, selectCompactRows, type SessionRow, toCompact } from "./sessions.ts";
import {
  type SessionGroupKey,
  sessionGroupLabel,
  sessionGroupOf,
} from "../shared/session_groups.ts";

/**
 * What the list shows: not a hidden scratch session (empty and never named) and not a delegated
 * child (lib/sessions/delegate_sessions.ts). The same text as the partial index (migration 11).
 */
export const VISIBLE_SQL =
  "(NOT (message_count = 0 AND title = 'Untitled' AND active_stream_id IS NULL) AND delegate_call_id IS NULL)";

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 500;

/**
 * What the list shows. Each field maps to one SQL condition (see `filterWhere`); a field whose
 * column a later migration adds (`profile`, `cron_job_id`) is accepted and ignored on a
 * database without it, so a new filter is one OPTIONAL_FILTERS entry. `tasks` reads
 * `sessions.cron_job_id` (sessions started by a scheduled task).
 */
export interface SessionFilter {
  archived: "exclude" | "include" | "only";
  /** A project id; null = sessions in no project; undefined = any. */
  project?: string | null;
  /** Agent profile name (sessions.profile once it exists). */
  profile?: string;
  /** Sessions started by scheduled tasks: hide, show with the rest, or show alone. */
  tasks?: "exclude" | "include" | "only";
}

const OPTIONAL_FILTERS: Array<{
  column: string;
  where(f: SessionFilter): { sql: string; args: Array<string | number> } | null;
}> = [
  {
    // Sessions made under the default profile carry NULL (lib/agent/profiles.ts).
    column: "profile",
    where: (f) =>
      !f.profile
        ? null
        : f.profile === "default"
        ? { sql: "(profile IS NULL OR profile = 'default')", args: [] }
        : { sql: "profile = ?", args: [f.profile] },
  },
  {
    column: "cron_job_id",
    where: (f) =>
      f.tasks === "exclude"
        ? { sql: "cron_job_id IS NULL", args: [] }
        : f.tasks === "only"
        ? { sql: "cron_job_id IS NOT NULL", args: [] }
        : null,
  },
];

const columnsCache = new WeakMap<Db, Set<string>>();
function sessionColumns(db: Db): Set<string> {
  let cols = columnsCache.get(db);
  if (!cols) {
    const rows = db.prepare("PRAGMA table_info(sessions)").all() as Array<{ name: string }>;
    cols = new Set(rows.map((r) => r.name));
    columnsCache.set(db, cols);
  }
  return cols;
}

/** The filter's WHERE clause (always includes the visibility rule) and its arguments. */
export function filterWhere(
  db: Db,
  f: SessionFilter,
): { sql: string; args: Array<string | number> } {
  const parts = [VISIBLE_SQL];
  const args: Array<string | number> = [];
  if (f.archived === "exclude") parts.push("archived = 0");
  else if (f.archived === "only") parts.push("archived = 1");
  if (f.project === null) parts.push("project_id IS NULL");
  else if (f.project !== undefined) {
    parts.push("project_id = ?");
    args.push(f.project);
  }
  const cols = sessionColumns(db);
  for (const opt of OPTIONAL_FILTERS) {
    const w = cols.has(opt.column) ? opt.where(f) : null;
    if (w) {
      parts.push(w.sql);
      args.push(...w.args);
    }
  }
  return { sql: parts.join(" AND "), args };
}

const TRI = (v: string | null, name: string) => {
  if (v === null || v === "") return undefined;
  if (v === "0" || v === "false") return "exclude" as const;
  if (v === "1" || v === "true" || v === "all") return "include" as const;
  if (v === "only") return "only" as const;
  throw new ValidationError(`Invalid ${name} "${v.slice(0, 20)}": use 0, 1 or only`, name);
};

/**
 * Read the list's filters from query parameters: `archived=0|1|all` (1 = the archive view,
 * archived only), the original's `include_archived=1` (both), `project=<id>|none`,
 * `profile=<name>`, `tasks=0|1|only`.
 */
export function parseSessionFilter(params: URLSearchParams): SessionFilter {
  const inc = params.get("include_archived");
  const a = params.get("archived");
  let archived: SessionFilter["archived"] = inc === "1" || inc === "true" ? "include" : "exclude";
  if (a === "1" || a === "true" || a === "only") archived = "only";
  else if (a === "all") archived = "include";
  else if (a !== null && a !== "" && a !== "0" && a !== "false") {
    throw new ValidationError(`Invalid archived "${a.slice(0, 20)}": use 0, 1 or all`, "archived");
  }
  const p = params.get("project");
  const project = p === null || p === "" ? undefined : p === "none" ? null : p;
  const profile = params.get("profile")?.trim() || undefined;
  return { archived, project, profile, tasks: TRI(params.get("tasks"), "tasks") };
}

/** A position in the list: the key of the last row already shown. */
export interface PageKey {
  pinned: 0 | 1;
  updated_at: number;
  session_id: string;
}

/** Encode a position as an opaque, URL-safe cursor. */
export function encodeCursor(k: PageKey): string {
  const raw = JSON.stringify([k.pinned, k.updated_at, k.session_id]);
  return btoa(raw).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Decode a cursor; anything not made by encodeCursor is a ValidationError (400). */
export function decodeCursor(cursor: string): PageKey {
  const bad = () => new ValidationError(`Invalid cursor "${cursor.slice(0, 40)}"`, "cursor");
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let v: unknown;
  try {
    v = JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(v) || v.length !== 3 || (v[0] !== 0 && v[0] !== 1) ||
    typeof v[1] !== "number" || !Number.isFinite(v[1]) || typeof v[2] !== "string" ||
    !/^[0-9a-f]{1,64}$/.test(v[2])
  ) throw bad();
  return { pinned: v[0], updated_at: v[1], session_id: v[2] };
}

/** A group header: the group `key` starts at row `start` of this page. */
export interface PageGroup {
  key: SessionGroupKey;
  label: string;
  start: number;
}

export interface SessionPage {
  sessions: SessionRow[];
  /** The recency group of each row, parallel to `sessions`. */
  row_groups: SessionGroupKey[];
  groups: PageGroup[];
  /** Cursor for the next page, or null at the end of the list. */
  next_cursor: string | null;
  /** All sessions matching the filter (every page together). */
  count: number;
}

export interface PageOptions {
  limit?: number;
  cursor?: string | null;
  /** Server time (epoch seconds) and the viewer's zone, for the recency groups. */
  now: number;
  utcOffsetMinutes: number;
}

const ORDER = "ORDER BY pinned DESC, updated_at DESC, session_id DESC";

/**
 * How many sessions match: a lookup in `session_counts` (kept by triggers, see the storage
 * migration) when only archived/project filter, else a count over the index.
 */
export function countSessions(
  db: Db,
  filter: SessionFilter,
  where = filterWhere(db, filter),
): number {
  const cols = sessionColumns(db);
  const optional = OPTIONAL_FILTERS.some((o) => cols.has(o.column) && o.where(filter));
  if (!optional) {
    const parts: string[] = [];
    const args: string[] = [];
    if (filter.archived === "exclude") parts.push("archived = 0");
    else if (filter.archived === "only") parts.push("archived = 1");
    if (filter.project !== undefined) {
      parts.push("project_id = ?");
      args.push(filter.project ?? "");
    }
    const sql = `SELECT coalesce(sum(n), 0) AS n FROM session_counts${
      parts.length ? ` WHERE ${parts.join(" AND ")}` : ""
    }`;
    return (db.prepare(sql).get(...args) as { n: number }).n;
  }
  return (db.prepare(`SELECT count(*) AS n FROM sessions WHERE ${where.sql}`)
    .get(...where.args) as { n: number }).n;
}

/** One page of the list, newest first with pinned sessions on top (see the file header). */
export function listSessionPage(db: Db, filter: SessionFilter, opts: PageOptions): SessionPage {
  const limit = Math.min(Math.max(1, Math.trunc(opts.limit ?? DEFAULT_PAGE)), MAX_PAGE);
  const where = filterWhere(db, filter);
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  const keyset = after ? " AND (pinned, updated_at, session_id) < (?, ?, ?)" : "";
  const args = after
    ? [...where.args, after.pinned, after.updated_at, after.session_id]
    : where.args;
  const rows = db.prepare(
    `SELECT ${COMPACT_COLUMNS} FROM sessions WHERE ${where.sql}${keyset} ${ORDER} LIMIT ?`,
  ).all(...args, limit + 1).map(toCompact);
  const more = rows.length > limit;
  const sessions = more ? rows.slice(0, limit) : rows;
  const n = countSessions(db, filter, where);

  const groupOf = (s: { pinned: boolean; updated_at: number }) =>
    sessionGroupOf(s, opts.now, opts.utcOffsetMinutes);
  let prev: SessionGroupKey | null = after
    ? groupOf({ pinned: after.pinned === 1, updated_at: after.updated_at })
    : null;
  const row_groups: SessionGroupKey[] = [];
  const groups: PageGroup[] = [];
  sessions.forEach((s, i) => {
    const g = groupOf(s);
    row_groups.push(g);
    if (g !== prev) groups.push({ key: g, label: sessionGroupLabel(g), start: i });
    prev = g;
  });
  const last = sessions.at(-1);
  return {
    sessions,
    row_groups,
    groups,
    next_cursor: more && last
      ? encodeCursor({
        pinned: last.pinned ? 1 : 0,
        updated_at: last.updated_at,
        session_id: last.session_id,
      })
      : null,
    count: n,
  };
}

/**
 * Every matching session, newest updated_at first, read in batches for a streamed answer: the order
 * is fixed first (ids only, newest updated_at first), then each batch of full rows is read when
 * the stream asks for it, so rows are short-lived and a large history is never all in memory at
 * once. A session deleted meanwhile is skipped; one changed meanwhile keeps its place.
 */
export function allSessionsInBatches(
  db: Db,
  filter: SessionFilter,
  batch = 250,
): { count: number; next(): SessionRow[] | null } {
  const where = filterWhere(db, filter);
  const ids = (db.prepare(
    `SELECT session_id FROM sessions WHERE ${where.sql} ORDER BY updated_at DESC`,
  ).all(...where.args) as Array<{ session_id: string }>).map((r) => r.session_id);
  let at = 0;
  return {
    count: ids.length,
    next() {
      if (at >= ids.length) return null;
      const chunk = ids.slice(at, at += batch);
      const rows = selectCompactRows(
        db,
        `SELECT ${COMPACT_COLUMNS} FROM sessions WHERE session_id IN (${
          chunk.map(() => "?").join(",")
        })`,
        chunk,
      );
      const byId = new Map(rows.map((r) => [r.session_id, r]));
      return chunk.map((id) => byId.get(id)).filter((r): r is SessionRow => !!r);
    },
  };
}

/** The cursor that continues after `s` (the client keeps it per row to merge fresh pages). */
export function cursorAfter(s: SessionRow): string {
  return encodeCursor({
    pinned: s.pinned ? 1 : 0,
    updated_at: s.updated_at,
    session_id: s.session_id,
  });
}

/** `+HHMM`/`-HHMM` for an offset in minutes east of UTC. */
export function formatTzOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const m = Math.abs(Math.trunc(minutes));
  return `${sign}${String(Math.floor(m / 60)).padStart(2, "0")}${String(m % 60).padStart(2, "0")}`;
}

/**
 * The viewer's zone, minutes east of UTC: `tz_offset` query parameter, else the `hermes_tz`
 * cookie the sidebar script sets, else `fallback` (the server's zone). Out of range → fallback.
 */
export function viewerUtcOffset(
  params: URLSearchParams,
  cookieHeader: string | null,
  fallback: number,
): number {
  const fromCookie = /(?:^|;\s*)hermes_tz=(-?\d{1,4})(?:;|$)/.exec(cookieHeader ?? "")?.[1];
  const raw = params.get("tz_offset") ?? fromCookie;
  if (raw === undefined || raw === null || !/^-?\d{1,4}$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= -14 * 60 && n <= 14 * 60 ? n : fallback;
}
