// POST /api/workspaces/add {path, name?} → {ok, workspace, workspaces, last}. The path must be
// an existing directory outside the system roots; it is stored as its real path.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { addWorkspace, lastWorkspace, listWorkspaces } from "../../../lib/workspace/workspaces.ts";

const Body = z.object({ path: z.string().min(1), name: z.string().nullable().optional() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { path, name } = await readBody(req, Body);
    const workspace = await addWorkspace(app, app.clock, path, name);
    return json({ ok: true, workspace, workspaces: listWorkspaces(app), last: lastWorkspace(app) });
  },
};
