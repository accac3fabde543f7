// GET /api/git/status?session_id=&offset=&limit= → {git: {is_git: false} | the status (branch,
// upstream, ahead/behind, totals, one page of files: offset/limit/total/truncated)}: the
// original's `git` key. Git runs via runGit.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { panelStatus } from "../../../lib/workspace/git_panel.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const t = await gitTargetFor(app, requireParam(url, "session_id"));
    const num = (k: string) => {
      const v = url.searchParams.get(k);
      return v === null || !/^\d{1,9}$/.test(v) ? undefined : Number(v);
    };
    return json({ git: await panelStatus(t, { offset: num("offset"), limit: num("limit") }) });
  },
};
