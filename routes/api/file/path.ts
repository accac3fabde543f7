// POST /api/file/path {session_id, path} → {ok, path, exists}: the absolute path of a
// workspace-relative path, also for a file that does not exist yet. A path hostile on its face
// (`..`, absolute, NUL, percent-escapes…) → 400 naming why, before any lookup (as the original);
// a symlink escape → the guard's 404; missing fields → 400; unknown session → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath, resolveInWorkspace } from "../../../lib/workspace/workspace_paths.ts";

const Body = z.object({ session_id: z.string().min(1), path: z.string().min(1).max(4096) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    refuseHostilePath(body.path);
    const abs = await resolveInWorkspace(session.workspace, body.path, { mustExist: false });
    const exists = await Deno.lstat(abs).then(() => true, () => false);
    return json({ ok: true, path: abs, exists });
  },
};
