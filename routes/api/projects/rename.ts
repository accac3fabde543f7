// POST /api/projects/rename {project_id, name?, color?} → {ok, project}; unknown → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { COLOR_RE, MAX_PROJECT_NAME, renameProject } from "../../../lib/sessions/projects.ts";

const Body = z.object({
  project_id: z.string().min(1),
  name: z.string().trim().min(1, "must not be empty").max(MAX_PROJECT_NAME).optional(),
  color: z.string().regex(COLOR_RE, "must be a hex colour like #3b82f6").nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { project_id, name, color } = await readBody(req, Body);
    return json({ ok: true, project: await renameProject(app.db, project_id, { name, color }) });
  },
};
