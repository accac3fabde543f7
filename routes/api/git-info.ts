// GET /api/git-info?session_id= → {git: {is_git: false} | {is_git: true, branch, upstream, ahead,
// behind, totals, files, truncated}} for the session's workspace (the original's shape). Git runs
// in the terminal's sandbox (lib/workspace/git_command.ts): a hostile repo config runs nothing.
import type { Handlers } from "../../lib/server/file_router.ts";
import { gitStatus } from "../../lib/workspace/git_info.ts";
import { json, requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    let workspace: string;
    try {
      workspace = await Deno.realPath(session.workspace);
    } catch {
      return json({ git: { is_git: false } }); // the workspace is gone
    }
    return json({
      git: await gitStatus(workspace, {
        sandbox: app.tools.commands,
        path: app.config.env.PATH,
      }),
    });
  },
};
