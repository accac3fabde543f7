// POST /api/file/rename {session_id, path, new_name} → {ok, old_path, new_path}: same folder;
// a taken or invalid name → 400; the entry itself is renamed (a symlink stays a link).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { renameEntry } from "../../../lib/workspace/file_ops.ts";

const Body = z.object({ session_id: z.string(), path: z.string(), new_name: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    return json(await renameEntry(session.workspace, body.path, body.new_name, app.config));
  },
};
