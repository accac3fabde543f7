// Full-text search over session titles (title_fts) and message text (message_fts); on
// PostgreSQL over the expression GIN indexes that stand in for them (storage pg_migrations.ts).
// Invariants: user input never reaches FTS5 or to_tsquery as syntax — it is split into word
// tokens, each quoted as a prefix phrase — so any query (`foo"(`, `AND`, `*`, `!`) is safe;
// hidden scratch sessions never match; a session appears once, as a title match if its title
// matches; every match is counted and reachable by paging (limit/offset), none is dropped.
import type { Db } from "../storage/db.ts";
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

const VISIBLE = "NOT (s.message_count = 0 AND s.title = 'Untitled' AND s.active_stream_id IS NULL)";
const S_COLUMNS = COMPACT_COLUMNS.split(", ").map((c) => `s.${c}`).join(", ");

/**
 * The text a PostgreSQL search matches, written exactly as its GIN index's expression
 * (storage pg_migrations.ts: sessions_title_search, messages_content_search), or the planner
 * cannot use the index.
 */
const pgSearchVector = (column: string) =>
  `to_tsvector('simple', regexp_replace(left(${column}, 200000), '[[:punct:]]', ' ', 'g'))`;

/** Every visible session whose title matches, newest first: ids only (cheap at any size). */
/** `match` is toFtsQuery's text on SQLite, toTsQuery's on PostgreSQL. */
function titleMatchIds(db: Db, match: string): string[] {
  const rows = db.backend === "postgres"
    ? db.prepare(
      `SELECT s.session_id AS id FROM sessions s
       WHERE ${pgSearchVector("s.title")} @@ to_tsquery('simple', ?) AND ${VISIBLE}
       ORDER BY s.updated_at DESC, s.session_id DESC`,
    ).all(match)
    : db.prepare(
      `SELECT s.session_id AS id FROM title_fts JOIN sessions s ON s.rowid = title_fts.rowid
       WHERE title_fts MATCH ? AND ${VISIBLE}
       ORDER BY s.updated_at DESC, s.session_id DESC`,
    ).all(match);
  return (rows as Array<{ id: string }>).map((r) => r.id);
}

/**
 * Every visible session with a matching user/assistant message, newest first, with the id of
 * its latest matching message: ids only; rows and snippets are read for the page alone.
 */
function contentMatchIds(db: Db, match: string): Array<{ id: string; mid: number }> {
  // The role test is the PostgreSQL index's own predicate (it indexes only these roles).
  const matches = db.backend === "postgres"
    ? `FROM messages m
       WHERE ${pgSearchVector("m.content")} @@ to_tsquery('simple', ?)
         AND m.role IN ('user', 'assistant')`
    : `FROM message_fts JOIN messages m ON m.id = message_fts.rowid
       WHERE message_fts MATCH ? AND m.role IN ('user', 'assistant')`;
  return db.prepare(
    `WITH hits AS MATERIALIZED (
       SELECT m.session_id AS sid, max(m.id) AS mid
       ${matches}
       GROUP BY m.session_id)
     SELECT s.session_id AS id, hits.mid AS mid FROM hits
     JOIN sessions s ON s.session_id = hits.sid
     WHERE ${VISIBLE}
     ORDER BY s.updated_at DESC, s.session_id DESC`,
  ).all(match) as Array<{ id: string; mid: number }>;
}

/**
 * Plain-text snippets (markdown stripped) centred on the first matched word, whole words only,
 * for the given message ids (lib/sessions/search_snippet.ts).
 */
function snippets(db: Db, query: string, ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db.prepare(
    `SELECT id, content FROM messages WHERE id IN (${ids.map(() => "?").join(",")})`,
  ).all(...ids) as Array<{ id: number; content: string }>;
  return new Map(rows.map((r) => [r.id, searchSnippet(String(r.content), query)]));
}

function rowsById(db: Db, ids: string[]): Map<string, SessionRow> {
  const out = new Map<string, SessionRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = db.prepare(
      `SELECT ${S_COLUMNS} FROM sessions s WHERE s.session_id IN (${
        chunk.map(() => "?").join(",")
      })`,
    ).all(...chunk);
    for (const r of rows) out.set(r.session_id as string, toCompact(r));
  }
  return out;
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
export function searchSessions(db: Db, query: string, opts: SearchOptions = {}): SearchResult {
  const match = db.backend === "postgres" ? toTsQuery(query) : toFtsQuery(query);
  if (!match) return { sessions: [], count: 0 };
  const limit = Math.min(
    Math.max(1, Math.trunc(opts.limit ?? SEARCH_DEFAULT_LIMIT)),
    SEARCH_MAX_LIMIT,
  );
  const offset = Math.max(0, Math.trunc(opts.offset ?? 0));
  const titleIds = titleMatchIds(db, match);
  const seen = new Set(titleIds);
  const content = opts.content ? contentMatchIds(db, match).filter((h) => !seen.has(h.id)) : [];
  const all: Array<{ id: string; mid?: number }> = [...titleIds.map((id) => ({ id })), ...content];
  const page = all.slice(offset, offset + limit);
  const rows = rowsById(db, page.map((h) => h.id));
  const previews = snippets(db, query, page.flatMap((h) => (h.mid === undefined ? [] : [h.mid])));
  const sessions: SearchHit[] = [];
  for (const h of page) {
    const row = rows.get(h.id);
    if (!row) continue;
    sessions.push(
      h.mid === undefined
        ? { ...row, match_type: "title", match_preview: row.title }
        : { ...row, match_type: "content", match_preview: previews.get(h.mid) ?? "" },
    );
  }
  return { sessions, count: all.length };
}
