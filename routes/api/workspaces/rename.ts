// POST /api/workspaces/rename {path, name} → {ok, workspace, workspaces}; unlisted → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { listWorkspaces, renameWorkspace } from "../../../lib/workspace/workspaces.ts";

const Body = z.object({ path: z.string().min(1), name: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { path, name } = await readBody(req, Body);
    const workspace = await renameWorkspace(app, app.clock, path, name);
    return json({ ok: true, workspace, workspaces: await listWorkspaces(app) });
  },
};
