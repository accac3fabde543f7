// Full-text search over session titles (title_fts) and message text (message_fts).
// Invariants: user input never reaches FTS5 as syntax — it is split into word tokens, each
// quoted as a prefix phrase — so any query (`foo"(`, `AND`, `*`) is safe; hidden scratch
// sessions never match; a session appears once, as a title match if its title matches.
import type { Db } from "../storage/db.ts";
import { COMPACT_COLUMNS, type SessionRow, toCompact } from "./sessions.ts";

export interface SearchHit extends SessionRow {
  match_type: "title" | "content";
  match_preview: string;
}

/** Cap on sessions returned per match type. */
export const SEARCH_LIMIT = 50;

/**
 * Turn free text into a safe FTS5 query: word tokens (letters, digits, underscore) each
 * quoted as a phrase with a prefix star, ANDed. Returns null when no word remains.
 */
export function toFtsQuery(text: string): string | null {
  const tokens = text.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (tokens.length === 0) return null;
  return tokens.slice(0, 16).map((t) => `"${t}"*`).join(" ");
}

const VISIBLE = "NOT (s.message_count = 0 AND s.title = 'Untitled' AND s.active_stream_id IS NULL)";
const S_COLUMNS = COMPACT_COLUMNS.split(", ").map((c) => `s.${c}`).join(", ");

function titleMatches(db: Db, fts: string): SearchHit[] {
  const rows = db.prepare(
    `SELECT ${S_COLUMNS} FROM title_fts JOIN sessions s ON s.rowid = title_fts.rowid
     WHERE title_fts MATCH ? AND ${VISIBLE}
     ORDER BY s.updated_at DESC LIMIT ${SEARCH_LIMIT}`,
  ).all(fts);
  return rows.map((r) => ({
    ...toCompact(r),
    match_type: "title" as const,
    match_preview: r.title as string,
  }));
}

function contentMatches(db: Db, fts: string, exclude: Set<string>): SearchHit[] {
  // The latest matching user/assistant message per session, newest sessions first. Only
  // message ids are gathered here (cheap); snippets are cut for the page alone.
  const rows = db.prepare(
    `WITH hits AS MATERIALIZED (
       SELECT m.session_id AS sid, max(m.id) AS mid
       FROM message_fts JOIN messages m ON m.id = message_fts.rowid
       WHERE message_fts MATCH ? AND m.role IN ('user', 'assistant')
       GROUP BY m.session_id)
     SELECT ${S_COLUMNS}, hits.mid AS mid FROM hits
     JOIN sessions s ON s.session_id = hits.sid
     WHERE ${VISIBLE}
     ORDER BY s.updated_at DESC LIMIT ${SEARCH_LIMIT * 2}`,
  ).all(fts).filter((r) => !exclude.has(r.session_id as string)).slice(0, SEARCH_LIMIT);
  const previews = snippets(db, fts, rows.map((r) => r.mid as number));
  return rows.map((r) => ({
    ...toCompact(r),
    match_type: "content" as const,
    match_preview: previews.get(r.mid as number) ?? "",
  }));
}

/** Plain-text snippets around the match for the given message ids. */
function snippets(db: Db, fts: string, ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db.prepare(
    `SELECT rowid AS id, snippet(message_fts, 0, '', '', '…', 16) AS preview FROM message_fts
     WHERE message_fts MATCH ? AND rowid IN (${ids.map(() => "?").join(",")})`,
  ).all(fts, ...ids) as Array<{ id: number; preview: string }>;
  return new Map(rows.map((r) => [r.id, String(r.preview).replace(/\s+/g, " ").trim()]));
}

/** Sessions whose title (and, with `content`, whose messages) match `query`. */
export function searchSessions(
  db: Db,
  query: string,
  opts: { content?: boolean } = {},
): SearchHit[] {
  const fts = toFtsQuery(query);
  if (!fts) return [];
  const byTitle = titleMatches(db, fts);
  if (!opts.content) return byTitle;
  const seen = new Set(byTitle.map((h) => h.session_id));
  return [...byTitle, ...contentMatches(db, fts, seen)];
}
