// POST /api/git/branch {session_id, branch} → {ok, git, branches, current_branch, message}.
// Creates the branch at HEAD and switches to it (local changes come along).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { checkout } from "../../../lib/workspace/git_branches.ts";

const Body = z.object({ session_id: z.string().min(1), branch: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    return json(await checkout(t, { ref: body.branch, mode: "new" }));
  },
};
