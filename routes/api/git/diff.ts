// GET /api/git/diff?session_id=&path=&kind=staged|unstaged → {path, kind, binary, too_large,
// additions, deletions, diff, hunks}. An untracked file diffs against nothing (kind "untracked").
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { ValidationError } from "../../../lib/errors.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { fileDiff } from "../../../lib/workspace/git_panel.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const t = await gitTargetFor(app, requireParam(url, "session_id"));
    const kind = url.searchParams.get("kind") ?? "unstaged";
    if (kind !== "staged" && kind !== "unstaged") {
      throw new ValidationError('Invalid parameter "kind": staged or unstaged', "kind");
    }
    return json(await fileDiff(t, requireParam(url, "path"), kind));
  },
};
