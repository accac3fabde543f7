// GET /api/git-info?session_id= → {git: null | {branch, dirty, modified, untracked, ahead,
// behind}} for the session's workspace (null outside a repo or without git).
import type { Handlers } from "../../lib/server/file_router.ts";
import { gitInfo } from "../../lib/workspace/git_info.ts";
import { json, requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = getSession(app.db, requireParam(url, "session_id"));
    return json({ git: await gitInfo(session.workspace) });
  },
};
