// GET /api/sessions/search?q=&content=1&limit=&offset= → {sessions:[row + match_type,
// match_preview], query, count, limit, offset}: full-text over titles, and over message text
// with content=1. `count` is every match; `limit` (default 200, at most 1,000) pages them.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { ValidationError } from "../../../lib/errors.ts";
import {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  searchSessions,
} from "../../../lib/sessions/session_search.ts";

function whole(params: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > max || (name === "limit" && n < 1)) {
    throw new ValidationError(
      `Invalid ${name} "${raw.slice(0, 20)}": use a whole number${
        name === "limit" ? ` from 1 to ${max}` : ""
      }`,
      name,
    );
  }
  return n;
}

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const params = url.searchParams;
    const query = (params.get("q") ?? "").trim();
    const flag = params.get("content");
    const content = flag === "1" || flag === "true";
    const limit = whole(params, "limit", SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT);
    const offset = whole(params, "offset", 0, Number.MAX_SAFE_INTEGER);
    const { sessions, count } = await searchSessions(app.db, query, { content, limit, offset });
    return json({ sessions, query, count, limit, offset });
  },
};
