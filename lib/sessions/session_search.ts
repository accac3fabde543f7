// Full-text search over session titles (title_fts) and message text (message_fts); on
// PostgreSQL over the expression GIN indexes that stand in for them (storage pg_migrations.ts).
// Invariants: user input never reaches FTS5 or to_tsquery as syntax — it is split into word
// tokens, each quoted as a prefix phrase — so any query (`foo"(`, `AND`, `*`, `!`) is safe;
// hidden scratch sessions never match; a session appears once, as a title match if its title
// matches; every match is counted and reachable by paging (limit/offset), none is dropped.
// The matches are ordered, counted and paged by the database: only the page's rows and
// snippets are read into memory, whatever the number of matches.
import { type AsyncQueries, sql, type SqlQuery } from "../storage/db.ts";
import { COMPACT_COLUMNS, type SessionRow, toCompact } from "./sessions.ts";
import { searchSnippet } from "./search_snippet.ts";

export interface SearchHit extends SessionRow {
  match_type: "title" | "content";
  match_preview: string;
}

/** Results per answer unless `limit` says otherwise, and the most one answer carries. */
export const SEARCH_DEFAULT_LIMIT = 200;
export const SEARCH_MAX_LIMIT = 1000;

/**
 * Turn free text into a safe FTS5 query: word tokens (letters, digits, underscore) each
 * quoted as a phrase with a prefix star, ANDed. Returns null when no word remains.
 */
export function toFtsQuery(text: string): string | null {
  const tokens = queryTokens(text);
  if (tokens.length === 0) return null;
  return tokens.map((t) => `"${t}"*`).join(" ");
}

/**
 * The same query for PostgreSQL's to_tsquery: the same tokens, each a quoted lexeme with a
 * prefix mark, ANDed. A token holds only letters, digits and underscores, so quoting it can
 * neither close the quote nor smuggle an operator in. The parser splits words at `_` as
 * unicode61 does, and FTS5 reads `"foo_ba"*` as the phrase foo, then a word starting ba:
 * spelled out here as `('foo' <-> 'ba':*)`. A token of underscores alone is no word; FTS5
 * drops it from the query, and so does this. Returns null when no word remains.
 */
export function toTsQuery(text: string): string | null {
  const terms = queryTokens(text).flatMap((token) => {
    const words = token.split("_").filter((w) => w !== "");
    if (words.length === 0) return [];
    const lexemes = words.map((w, i) => (i === words.length - 1 ? `'${w}':*` : `'${w}'`));
    return [lexemes.length === 1 ? lexemes[0] : `(${lexemes.join(" <-> ")})`];
  });
  return terms.length === 0 ? null : terms.join(" & ");
}

/** The words of a query: runs of letters, digits and underscores, at most 16. */
function queryTokens(text: string): string[] {
  return (text.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 16);
}

const VISIBLE = sql.raw(
  "NOT (s.message_count = 0 AND s.title = 'Untitled' AND s.active_stream_id IS NULL)",
);
const S_COLUMNS = sql.raw(COMPACT_COLUMNS.split(", ").map((c) => `s.${c}`).join(", "));

/**
 * The text a PostgreSQL search matches, written exactly as its GIN index's expression
 * (storage pg_migrations.ts: sessions_title_search, messages_content_search), or the planner
 * cannot use the index.
 */
const pgSearchVector = (column: string) =>
  sql.raw(
    `to_tsvector('simple', regexp_replace(left(${column}, 200000), '[[:punct:]]', ' ', 'g'))`,
  );

/**
 * Every match as `found` (kind 0: title, 1: content; id, updated_at u, latest matching message
 * mid), a common table expression to select from. Title matches: every visible session whose
 * title matches. Content matches: every visible session, not a title match, with a matching
 * user/assistant message, and the id of its latest one. `match` is toFtsQuery's text on SQLite
 * (FTS5), toTsQuery's on PostgreSQL (the expression GIN indexes).
 */
function matchesCte(db: AsyncQueries, match: string, content: boolean): SqlQuery {
  const titles = db.backend === "postgres"
    ? sql`SELECT s.session_id AS id, s.updated_at AS u FROM sessions s
          WHERE ${pgSearchVector("s.title")} @@ to_tsquery('simple', ${match}) AND ${VISIBLE}`
    : sql`SELECT s.session_id AS id, s.updated_at AS u
          FROM title_fts JOIN sessions s ON s.rowid = title_fts.rowid
          WHERE title_fts MATCH ${match} AND ${VISIBLE}`;
  if (!content) {
    return sql`WITH found AS (SELECT 0 AS kind, id, u, NULL AS mid FROM (${titles}) t)`;
  }
  // The role test is the PostgreSQL index's own predicate (it indexes only these roles).
  const messages = db.backend === "postgres"
    ? sql`FROM messages m
          WHERE ${pgSearchVector("m.content")} @@ to_tsquery('simple', ${match})
            AND m.role IN ('user', 'assistant')`
    : sql`FROM message_fts JOIN messages m ON m.id = message_fts.rowid
          WHERE message_fts MATCH ${match} AND m.role IN ('user', 'assistant')`;
  return sql`WITH titles AS MATERIALIZED (${titles}),
    hits AS MATERIALIZED (
      SELECT m.session_id AS sid, max(m.id) AS mid ${messages}
      GROUP BY m.session_id),
    found AS (
      SELECT 0 AS kind, id, u, NULL AS mid FROM titles
      UNION ALL
      SELECT 1 AS kind, s.session_id AS id, s.updated_at AS u, hits.mid AS mid FROM hits
      JOIN sessions s ON s.session_id = hits.sid
      WHERE ${VISIBLE} AND s.session_id NOT IN (SELECT id FROM titles))`;
}

/**
 * Plain-text snippets (markdown stripped) centred on the first matched word, whole words only,
 * for the given message ids (lib/sessions/search_snippet.ts).
 */
async function snippets(
  db: AsyncQueries,
  query: string,
  ids: number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all<{ id: number; content: string }>(
    sql`SELECT id, content FROM messages WHERE id IN (${sql.join(ids)})`,
  );
  // Number(): the key the page's mid is looked up with, whatever type the driver gave.
  return new Map(rows.map((r) => [Number(r.id), searchSnippet(String(r.content), query)]));
}

export interface SearchOptions {
  /** Also search message text (otherwise titles only). */
  content?: boolean;
  /** Page size (default 200, at most 1,000) and how many matches to skip. */
  limit?: number;
  offset?: number;
}

export interface SearchResult {
  /** This page of matches: title matches first, then content matches, each newest first. */
  sessions: SearchHit[];
  /** Every match, all pages together (a session counts once). */
  count: number;
}

/** Sessions whose title (and, with `content`, whose messages) match `query`. */
export async function searchSessions(
  db: AsyncQueries,
  query: string,
  opts: SearchOptions = {},
): Promise<SearchResult> {
  const match = db.backend === "postgres" ? toTsQuery(query) : toFtsQuery(query);
  if (!match) return { sessions: [], count: 0 };
  const limit = Math.min(
    Math.max(1, Math.trunc(opts.limit ?? SEARCH_DEFAULT_LIMIT)),
    SEARCH_MAX_LIMIT,
  );
  const offset = Math.max(0, Math.trunc(opts.offset ?? 0));
  const found = matchesCte(db, match, !!opts.content);
  // The page is cut from the ids alone, then joined to its rows: the sort never carries them.
  const page = await db.all<Record<string, unknown> & { mid: number | null; total: number }>(
    sql`${found}
        SELECT ${S_COLUMNS}, page.mid AS mid, page.total AS total
        FROM (SELECT kind, id, u, mid, count(*) OVER () AS total FROM found
              ORDER BY kind, u DESC, id DESC LIMIT ${limit} OFFSET ${offset}) page
        JOIN sessions s ON s.session_id = page.id
        ORDER BY page.kind, page.u DESC, page.id DESC`,
  );
  // A page past the end carries no total: count the matches alone.
  const count = page.length > 0
    ? Number(page[0].total)
    : offset === 0
    ? 0
    : Number((await db.get<{ n: number }>(sql`${found} SELECT count(*) AS n FROM found`))?.n ?? 0);
  const mids = page.flatMap((r) => (r.mid === null ? [] : [Number(r.mid)]));
  const previews = await snippets(db, query, mids);
  const sessions: SearchHit[] = page.map((r) => {
    const row = toCompact(r);
    return r.mid === null
      ? { ...row, match_type: "title", match_preview: row.title }
      : { ...row, match_type: "content", match_preview: previews.get(Number(r.mid)) ?? "" };
  });
  return { sessions, count };
}
