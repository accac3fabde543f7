// GET /api/git/branches?session_id= → {current, detached, head, branches, remotes}.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { branches } from "../../../lib/workspace/git_panel.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    return json(await branches(await gitTargetFor(app, requireParam(url, "session_id"))));
  },
};
