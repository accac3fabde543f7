// GET /api/git/log?session_id=&limit= → {commits: [{hash, short, author, email, date, subject}]}.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { log } from "../../../lib/workspace/git_panel.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const t = await gitTargetFor(app, requireParam(url, "session_id"));
    const limit = Number(url.searchParams.get("limit") ?? 30);
    return json(await log(t, Number.isFinite(limit) ? limit : 30));
  },
};
