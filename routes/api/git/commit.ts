// POST /api/git/commit {session_id, message} → {ok, commit, status}. No repo hook runs, no signing.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { commit } from "../../../lib/workspace/git_panel.ts";

const Body = z.object({ session_id: z.string().min(1), message: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    return json(await commit(await gitTargetFor(app, body.session_id), body.message));
  },
};
