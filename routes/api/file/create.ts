// POST /api/file/create {session_id, path, content?, parents?} → {ok, path}: a new file in the
// session's workspace; with `parents`, missing folders on its path are made first (else 404). An
// existing name or a path hostile on its face (`..`, absolute, NUL…) → 400; a symlink out or a
// protected path → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath } from "../../../lib/workspace/workspace_paths.ts";
import { createFile } from "../../../lib/workspace/file_ops.ts";

const Body = z.object({
  session_id: z.string(),
  path: z.string(),
  content: z.string().optional(),
  parents: z.boolean().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    refuseHostilePath(body.path);
    return json(
      await createFile(session.workspace, body.path, body.content ?? "", app.config, {
        parents: body.parents,
      }),
    );
  },
};
