// GET /api/file/trash?session_id= → {items:[{id, path, name, type, size, deleted_at}]}: what
// the panel deleted in this session's workspace in the last 7 days, newest first.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { listTrash } from "../../../lib/workspace/trash.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    const items = await listTrash(app.config.stateDir, session.workspace);
    return json({ items: items.map(({ workspace: _w, ...rest }) => rest) });
  },
};
