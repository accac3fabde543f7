// One page of the sessions list: keyset paging on (pinned, updated_at, session_id), newest
// first, with the list's filters applied in SQL and the recency group of each row decided here.
// Invariants: never OFFSET (a page is found by the cursor's key, so rows inserted meanwhile
// never shift it: nothing is missed or repeated); a cursor is opaque and validated; a group
// header is emitted only where a row's group differs from the row before it (across pages too,
// since the cursor carries the previous row's key), so a page boundary never splits or repeats one.
// Every query goes through the async storage interface, written once for both backends.
import { type AsyncQueries, sql, type SqlQuery } from "../storage/db.ts";
import { ValidationError } from "../errors.ts";
import { COMPACT_COLUMNS, type SessionRow, toCompact } from "./sessions.ts";
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
  where(f: SessionFilter): SqlQuery | null;
}> = [
  {
    // Sessions made under the default profile carry NULL (lib/agent/profiles.ts).
    column: "profile",
    where: (f) =>
      !f.profile
        ? null
        : f.profile === "default"
        ? sql`(profile IS NULL OR profile = 'default')`
        : sql`profile = ${f.profile}`,
  },
  {
    column: "cron_job_id",
    where: (f) =>
      f.tasks === "exclude"
        ? sql`cron_job_id IS NULL`
        : f.tasks === "only"
        ? sql`cron_job_id IS NOT NULL`
        : null,
  },
];

// The promise is kept, so concurrent first requests share one read; a failed read is forgotten.
const columnsCache = new WeakMap<AsyncQueries, Promise<Set<string>>>();
function sessionColumns(db: AsyncQueries): Promise<Set<string>> {
  let cols = columnsCache.get(db);
  if (!cols) {
    cols = readSessionColumns(db);
    columnsCache.set(db, cols);
    cols.catch(() => columnsCache.delete(db));
  }
  return cols;
}

async function readSessionColumns(db: AsyncQueries): Promise<Set<string>> {
  const rows = db.backend === "postgres"
    ? await db.all<{ name: string }>(
      sql`SELECT column_name AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'sessions'`,
    )
    : await db.all<{ name: string }>(sql`SELECT name FROM pragma_table_info('sessions')`);
  return new Set(rows.map((r) => r.name));
}

/** The filter's WHERE clause (always includes the visibility rule), its values as parameters. */
export async function filterWhere(db: AsyncQueries, f: SessionFilter): Promise<SqlQuery> {
  // The visibility rule stays literal text: the partial index matches on it.
  const parts: SqlQuery[] = [sql.raw(VISIBLE_SQL)];
  if (f.archived === "exclude") parts.push(sql`archived = 0`);
  else if (f.archived === "only") parts.push(sql`archived = 1`);
  if (f.project === null) parts.push(sql`project_id IS NULL`);
  else if (f.project !== undefined) parts.push(sql`project_id = ${f.project}`);
  const cols = await sessionColumns(db);
  for (const opt of OPTIONAL_FILTERS) {
    const w = cols.has(opt.column) ? opt.where(f) : null;
    if (w) parts.push(w);
  }
  return sql.join(parts, sql` AND `);
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
  /** All archived sessions, whatever the filter (the answer's `archived_count`). */
  archived_count: number;
}

export interface PageOptions {
  limit?: number;
  cursor?: string | null;
  /** Server time (epoch seconds) and the viewer's zone, for the recency groups. */
  now: number;
  utcOffsetMinutes: number;
}

const ORDER = sql.raw("ORDER BY pinned DESC, updated_at DESC, session_id DESC");
const COLUMNS = sql.raw(COMPACT_COLUMNS);

/**
 * How many sessions match: a lookup in `session_counts` (kept by triggers, see the storage
 * migration) when only archived/project filter, else a count over the index.
 */
export async function countSessions(
  db: AsyncQueries,
  filter: SessionFilter,
  where?: SqlQuery,
): Promise<number> {
  // Number(): PostgreSQL's sum over bigint is numeric; one type whatever the backend.
  const row = await db.get<{ n: number }>(
    sql`SELECT ${await countExpression(db, filter, where)} AS n`,
  );
  return Number(row?.n ?? 0);
}

/** countSessions' count as a scalar subquery, to ride along in another statement. */
async function countExpression(
  db: AsyncQueries,
  filter: SessionFilter,
  where?: SqlQuery,
): Promise<SqlQuery> {
  const cols = await sessionColumns(db);
  const optional = OPTIONAL_FILTERS.some((o) => cols.has(o.column) && o.where(filter));
  if (!optional) {
    const parts: SqlQuery[] = [];
    if (filter.archived === "exclude") parts.push(sql`archived = 0`);
    else if (filter.archived === "only") parts.push(sql`archived = 1`);
    if (filter.project !== undefined) parts.push(sql`project_id = ${filter.project ?? ""}`);
    return sql`(SELECT coalesce(sum(n), 0) FROM session_counts${
      parts.length ? sql` WHERE ${sql.join(parts, sql` AND `)}` : sql``
    })`;
  }
  where ??= await filterWhere(db, filter);
  return sql`(SELECT count(*) FROM sessions WHERE ${where})`;
}

/** One page of the list, newest first with pinned sessions on top (see the file header). */
export async function listSessionPage(
  db: AsyncQueries,
  filter: SessionFilter,
  opts: PageOptions,
): Promise<SessionPage> {
  const limit = Math.min(Math.max(1, Math.trunc(opts.limit ?? DEFAULT_PAGE)), MAX_PAGE);
  const where = await filterWhere(db, filter);
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  const keyset = after
    ? sql` AND (pinned, updated_at, session_id) < (${after.pinned}, ${after.updated_at}, ${after.session_id})`
    : sql``;
  // The page and both counts in one statement: each statement is a round trip to a database on
  // another host, and the counts are lookups. A page past the end has no row to carry them.
  const total = await countExpression(db, filter, where);
  const archived = await countExpression(db, { archived: "only" });
  const counts = sql`${total} AS page_total, ${archived} AS page_archived`;
  const rows = await db.all<
    Record<string, unknown> & { page_total: number; page_archived: number }
  >(
    sql`SELECT ${COLUMNS}, ${counts} FROM sessions WHERE ${where}${keyset} ${ORDER} LIMIT ${
      limit + 1
    }`,
  );
  const totals = rows[0] ??
    await db.get<{ page_total: number; page_archived: number }>(sql`SELECT ${counts}`);
  const more = rows.length > limit;
  const sessions = (more ? rows.slice(0, limit) : rows).map(toCompact);

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
    count: Number(totals?.page_total ?? 0),
    archived_count: Number(totals?.page_archived ?? 0),
  };
}

/** Rows per batch of the unpaged list: ~250 KB of JSON, one short query each. */
export const LIST_BATCH = 500;

/**
 * Every matching session, newest updated_at first, a batch at a time for a streamed answer:
 * keyset on (updated_at, session_id), each batch read only when the consumer asks for the next
 * one, so neither the rows nor their ids are ever all in memory and no connection is held
 * between batches. A session inserted or deleted meanwhile is shown or not by where it falls;
 * none is shown twice. One whose updated_at moves while the list is read moves ahead of the
 * read position: shown already if its old place was passed, else left out of this answer (the
 * next read has it). The total is countSessions', read before the batches.
 */
export async function* allSessionsInBatches(
  db: AsyncQueries,
  filter: SessionFilter,
  batch = LIST_BATCH,
): AsyncGenerator<SessionRow[]> {
  if (filter.archived !== "include") {
    yield* newestFirst(db, filter, batch);
    return;
  }
  // The index orders by updated_at within one `archived` value only: for both, the database
  // would sort every remaining row at each batch (4× slower at 50,000 sessions). Each side is
  // read in index order instead, and the two merged here.
  yield* mergeNewestFirst(
    newestFirst(db, { ...filter, archived: "exclude" }, batch),
    newestFirst(db, { ...filter, archived: "only" }, batch),
    batch,
  );
}

async function* newestFirst(
  db: AsyncQueries,
  filter: SessionFilter,
  batch: number,
): AsyncGenerator<SessionRow[]> {
  const where = await filterWhere(db, filter);
  let after: { updated_at: number; session_id: string } | null = null;
  for (;;) {
    const keyset: SqlQuery = after
      ? sql` AND (updated_at, session_id) < (${after.updated_at}, ${after.session_id})`
      : sql``;
    const rows: SessionRow[] = (await db.all(
      sql`SELECT ${COLUMNS} FROM sessions WHERE ${where}${keyset}
          ORDER BY updated_at DESC, session_id DESC LIMIT ${batch}`,
    )).map(toCompact);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = { updated_at: last.updated_at, session_id: last.session_id };
  }
}

/** Whether `a` comes before `b` in the unpaged list's order. */
const isNewer = (a: SessionRow, b: SessionRow) =>
  a.updated_at > b.updated_at || (a.updated_at === b.updated_at && a.session_id > b.session_id);

/**
 * Two newest-first batch streams as one, in batches of `batch`, each side read a batch at a
 * time as the merge needs it. A session both sides hold (archived or restored while the list
 * was read) has the same key in both, so it is at both heads at once: it is shown once.
 */
async function* mergeNewestFirst(
  a: AsyncIterator<SessionRow[]>,
  b: AsyncIterator<SessionRow[]>,
  batch: number,
): AsyncGenerator<SessionRow[]> {
  const left = await rowReader(a);
  const right = await rowReader(b);
  let out: SessionRow[] = [];
  while (left.head || right.head) {
    const l = left.head;
    const r = right.head;
    if (l && r && l.session_id === r.session_id) {
      out.push(r);
      await left.advance();
      await right.advance();
    } else if (l && (!r || isNewer(l, r))) {
      out.push(l);
      await left.advance();
    } else {
      out.push(r!);
      await right.advance();
    }
    if (out.length === batch) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}

/** The rows of a batch stream one at a time: `head` is the next (null at the end). */
async function rowReader(batches: AsyncIterator<SessionRow[]>) {
  let rows: SessionRow[] = [];
  let at = 0;
  const reader = {
    head: null as SessionRow | null,
    async advance(): Promise<void> {
      while (at >= rows.length) {
        const next = await batches.next();
        if (next.done) {
          reader.head = null;
          return;
        }
        rows = next.value;
        at = 0;
      }
      reader.head = rows[at++];
    },
  };
  await reader.advance();
  return reader;
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
