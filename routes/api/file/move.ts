// POST /api/file/move {session_id, path, dest_dir} → {ok, old_path, new_path}: into another
// folder, same name; never over an existing entry (400), never a folder into itself (400). A
// `path` or `dest_dir` hostile on its face (`..`, absolute, NUL…) → 400 before any lookup.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath } from "../../../lib/workspace/workspace_paths.ts";
import { moveEntry } from "../../../lib/workspace/file_ops.ts";

const Body = z.object({ session_id: z.string(), path: z.string(), dest_dir: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    refuseHostilePath(body.path);
    refuseHostilePath(body.dest_dir, "dest_dir");
    return json(await moveEntry(session.workspace, body.path, body.dest_dir, app.config));
  },
};
