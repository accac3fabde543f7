// GET /api/sessions/search?q=&content=1 → {sessions:[row + match_type, match_preview], query,
// count}: full-text over titles, and over message text with content=1.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { searchSessions } from "../../../lib/sessions/session_search.ts";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const query = (url.searchParams.get("q") ?? "").trim();
    const flag = url.searchParams.get("content");
    const content = flag === "1" || flag === "true";
    const sessions = searchSessions(app.db, query, { content });
    return json({ sessions, query, count: sessions.length });
  },
};
