// POST /api/git/push {session_id} → 409 with why: the console's git has no network and none of the
// user's credentials (SECURITY.md "Git remotes"); "no_remote" when the repo has none.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { remoteOp } from "../../../lib/workspace/git_panel.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    return await remoteOp(await gitTargetFor(app, body.session_id), "push");
  },
};
