// GET /api/sessions?include_archived=1 → {sessions, archived_count, server_time}, newest
// updated_at first; empty "Untitled" sessions with no messages are hidden.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { listSessions } from "../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const flag = url.searchParams.get("include_archived");
    const includeArchived = flag === "1" || flag === "true";
    const { sessions, archived_count } = listSessions(app.db, { includeArchived });
    return json({ sessions, archived_count, server_time: app.clock() });
  },
};
