// POST /api/projects/delete {project_id} → {ok:true}; its sessions stay, unassigned.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { deleteProject } from "../../../lib/sessions/projects.ts";

const Body = z.object({ project_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { project_id } = await readBody(req, Body);
    await deleteProject(app.db, project_id);
    return json({ ok: true });
  },
};
