// POST /api/git/discard {session_id, paths, confirm: true, delete_untracked?} → {ok, git: the
// new status}.
// Throws work away: the page asks first and says so with confirm (else 400).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { discardPaths } from "../../../lib/workspace/git_panel.ts";

const Body = z.object({
  session_id: z.string().min(1),
  paths: z.array(z.string()),
  confirm: z.literal(true, { message: "discarding loses changes: send confirm: true" }),
  delete_untracked: z.boolean().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    return json({
      ok: true,
      git: await discardPaths(t, body.paths, body.delete_untracked === true),
    });
  },
};
