// POST /api/workspaces/add {path, name?} → {ok, workspace, workspaces, last}. The path must be
// an existing directory outside the system roots; it is stored as its real path. One already
// listed is a 400 naming it (as in the original); rename it with /api/workspaces/rename.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { ValidationError } from "../../../lib/errors.ts";
import {
  addWorkspace,
  lastWorkspace,
  listWorkspaces,
  validateWorkspaceToAdd,
} from "../../../lib/workspace/workspaces.ts";

const Body = z.object({ path: z.string().min(1), name: z.string().nullable().optional() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { path, name } = await readBody(req, Body);
    const real = await validateWorkspaceToAdd(app.config, path);
    if ((await listWorkspaces(app)).some((w) => w.path === real)) {
      throw new ValidationError(`Workspace "${real}" is already in the list`, "path");
    }
    const workspace = await addWorkspace(app, app.clock, real, name);
    return json({
      ok: true,
      workspace,
      workspaces: await listWorkspaces(app),
      last: await lastWorkspace(app),
    });
  },
};
