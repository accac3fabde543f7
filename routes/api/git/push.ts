// POST /api/git/push {session_id, remote?} → {ok, remote, url, branch, output}: pushes the current branch (HEAD) to the same branch on the remote and sets it as upstream, through
// the user's own credentials (lib/workspace/git_remote.ts; SECURITY.md "Git remotes"). 409 with a
// code when it cannot: no_remote, unsafe_config, unsafe_remote, unsafe_repository,
// credentials_missing, remote_unreachable, push_rejected, pull_diverged, detached_head.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { remoteOp } from "../../../lib/workspace/git_remote.ts";

const Body = z.object({
  session_id: z.string().min(1),
  remote: z.string().min(1).max(200).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    return json(await remoteOp(await gitTargetFor(app, body.session_id), "push", body.remote));
  },
};
