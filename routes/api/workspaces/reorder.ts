// POST /api/workspaces/reorder {paths:[…]} → {ok, workspaces}: the listed workspaces in this
// order (the default stays first; unnamed ones follow). An unlisted path → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { reorderWorkspaces } from "../../../lib/workspace/workspaces.ts";

const Body = z.object({ paths: z.array(z.string().min(1).max(4096)).max(500) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { paths } = await readBody(req, Body);
    return json({ ok: true, workspaces: await reorderWorkspaces(app, app.clock, paths) });
  },
};
