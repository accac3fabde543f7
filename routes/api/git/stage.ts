// POST /api/git/stage {session_id, paths: [..]} → {ok, git: the new status}. Paths pass the workspace guard.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { stagePaths } from "../../../lib/workspace/git_panel.ts";

const Body = z.object({ session_id: z.string().min(1), paths: z.array(z.string()) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    return json({
      ok: true,
      git: await stagePaths(await gitTargetFor(app, body.session_id), body.paths),
    });
  },
};
