// POST /api/file/create-dir {session_id, path} → {ok, path}: a new folder; taken → 400, and a
// path hostile on its face (`..`, absolute, NUL…) → 400 before any lookup.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath } from "../../../lib/workspace/workspace_paths.ts";
import { createDir } from "../../../lib/workspace/file_ops.ts";

const Body = z.object({ session_id: z.string(), path: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    refuseHostilePath(body.path);
    return json(await createDir(session.workspace, body.path, app.config));
  },
};
