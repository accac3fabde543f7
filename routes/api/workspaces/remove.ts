// POST /api/workspaces/remove {path} → {ok, workspaces, last}; an unlisted path → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import {
  lastWorkspace,
  listWorkspaces,
  removeWorkspace,
} from "../../../lib/workspace/workspaces.ts";

const Body = z.object({ path: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { path } = await readBody(req, Body);
    await removeWorkspace(app, path);
    return json({
      ok: true,
      workspaces: await listWorkspaces(app),
      last: await lastWorkspace(app),
    });
  },
};
