// POST /api/file/rename {session_id, path, new_name} → {ok, old_path, new_path}: same folder;
// a taken or invalid name → 400; the entry itself is renamed (a symlink stays a link). A path
// hostile on its face (`..`, absolute, NUL…) → 400 before any lookup.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath } from "../../../lib/workspace/workspace_paths.ts";
import { renameEntry } from "../../../lib/workspace/file_ops.ts";

const Body = z.object({ session_id: z.string(), path: z.string(), new_name: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    refuseHostilePath(body.path);
    return json(await renameEntry(session.workspace, body.path, body.new_name, app.config));
  },
};
