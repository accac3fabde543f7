// POST /api/file/restore {session_id, id} → {ok, path}: a recently deleted entry back where it
// was; its name taken or its folder gone → 409; an id of another workspace → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { restoreFromTrash } from "../../../lib/workspace/trash.ts";

const Body = z.object({ session_id: z.string(), id: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const b = await readBody(req, Body);
    const session = await getSession(app.db, b.session_id);
    return json(
      await restoreFromTrash(app.config.stateDir, session.workspace, b.id, app.config),
    );
  },
};
