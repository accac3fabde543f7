// POST /api/git/commit-selected {session_id, message, paths} → {ok, commit, paths, status}:
// commits only those files as they are in the working tree; whatever else is staged stays
// staged. A path outside the workspace: 400 {error, code: "path_outside_workspace"}.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { commitSelected } from "../../../lib/workspace/git_selected.ts";

const Body = z.object({
  session_id: z.string().min(1),
  message: z.string(),
  paths: z.array(z.string()),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    return json(await commitSelected(t, body.message, body.paths));
  },
};
