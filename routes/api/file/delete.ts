// POST /api/file/delete {session_id, path, recursive?, permanent?} → {ok, path, trash_id}: the
// entry goes to the trash (GET /api/file/trash, POST /api/file/restore); a folder needs
// recursive=true (400); `permanent` skips the trash. A path hostile on its face (`..`, absolute,
// NUL…) → 400 before any lookup; a missing entry → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath } from "../../../lib/workspace/workspace_paths.ts";
import { deleteEntry } from "../../../lib/workspace/trash.ts";

const Body = z.object({
  session_id: z.string(),
  path: z.string(),
  recursive: z.boolean().optional(),
  permanent: z.boolean().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    refuseHostilePath(body.path);
    return json(
      await deleteEntry(app.config.stateDir, session.workspace, body.path, {
        recursive: body.recursive,
        permanent: body.permanent,
        protect: app.config,
      }),
    );
  },
};
