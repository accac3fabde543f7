// POST /api/session/move {session_id, project_id|null} → {ok, session}; unknown project → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getProject } from "../../../lib/sessions/projects.ts";
import { getSession, moveSession } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1), project_id: z.string().min(1).nullable() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, project_id } = await readBody(req, Body);
    await getSession(app.db, session_id);
    if (project_id !== null) await getProject(app.db, project_id);
    return json({ ok: true, session: await moveSession(app.db, session_id, project_id) });
  },
};
