// POST /api/git/checkout → {ok, git, branches, current_branch, message}. The original's body
// {session_id, ref, mode: local|new|remote|detached, new_branch?, track?, dirty_mode?: "block"}
// refuses while files are changed (409, code dirty_worktree: /api/git/stash-checkout parks them);
// the short form {session_id, branch} switches to a local branch and lets git keep the changes
// it can (409 when the switch would overwrite one).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { ValidationError } from "../../../lib/errors.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { checkout } from "../../../lib/workspace/git_branches.ts";
import { CheckoutFields } from "../../../lib/workspace/git_checkout_body.ts";

const Body = CheckoutFields.extend({
  branch: z.string().optional(),
  dirty_mode: z.literal("block", { message: 'Only dirty_mode "block" is supported' }).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    if (body.ref !== undefined) {
      return json(
        await checkout(t, {
          ref: body.ref,
          mode: body.mode ?? "local",
          newBranch: body.new_branch,
          track: body.track,
        }, { blockDirty: true }),
      );
    }
    if (body.branch === undefined) {
      throw new ValidationError('Missing field "ref" (or "branch")', "ref");
    }
    return json(await checkout(t, { ref: body.branch, mode: "local" }));
  },
};
