// GET /api/workspaces → {workspaces:[{path, name}], last}.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { lastWorkspace, listWorkspaces } from "../../lib/workspace/workspaces.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ workspaces: await listWorkspaces(app), last: await lastWorkspace(app) });
  },
};
