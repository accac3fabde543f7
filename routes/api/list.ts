// GET /api/list?session_id=&path=. → {entries, path, workspace, truncated}: one folder of the
// session's workspace (folders first, ≤200 entries). Escapes and unknown paths → 404.
import type { Handlers } from "../../lib/server/file_router.ts";
import { listDirectory } from "../../lib/workspace/files.ts";
import { json, requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = getSession(app.db, requireParam(url, "session_id"));
    const path = url.searchParams.get("path") || ".";
    return json(await listDirectory(session.workspace, path, { protect: app.config }));
  },
};
