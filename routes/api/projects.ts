// GET /api/projects → {projects:[{project_id, name, color, workspaces, default_workspace,
// model, model_provider, created_at, …}]}.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { listProjects } from "../../lib/sessions/projects.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ projects: await listProjects(app.db) });
  },
};
