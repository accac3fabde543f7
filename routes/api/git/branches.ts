// GET /api/git/branches?session_id= → {branches: {is_git, current, detached, head, local, remote,
// upstream, ahead, behind}}: each branch an object {name, sha, updated, updated_relative, author,
// subject, upstream, ahead, behind, current} (the original's shape).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { branches } from "../../../lib/workspace/git_branches.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const t = await gitTargetFor(app, requireParam(url, "session_id"));
    return json({ branches: await branches(t) });
  },
};
