// GET /api/terminal/list?session_id= → {terminals: [{terminal_id, rows, cols, created_at,
// viewers}]}: the session's running terminals, oldest first (a reopened page reattaches them).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    const terminals = app.terminals.list(sessionId).sort((a, b) => a.created_at - b.created_at);
    return json({ terminals });
  },
};
