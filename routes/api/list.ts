// GET /api/list?session_id=&path=. → {entries, path, workspace, truncated}: one folder of the
// session's workspace (folders first, ≤200 entries). Escapes and unknown paths → 404.
// `?workspace=<abs>&path=` instead of a session: a new chat's panel lists the workspace it will
// use; only a trusted workspace (home, the default, a registered one) is listed, else 400.
import type { Handlers } from "../../lib/server/file_router.ts";
import { listDirectory } from "../../lib/workspace/files.ts";
import { json, requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";
import { resolveTrustedWorkspace } from "../../lib/workspace/workspaces.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const ws = url.searchParams.get("workspace");
    const workspace = ws !== null && !url.searchParams.has("session_id")
      ? await resolveTrustedWorkspace(app, ws)
      : (await getSession(app.db, requireParam(url, "session_id"))).workspace;
    const path = url.searchParams.get("path") || ".";
    return json(await listDirectory(workspace, path, { protect: app.config }));
  },
};
