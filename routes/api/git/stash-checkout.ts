// POST /api/git/stash-checkout {session_id, ref, mode: local|new|remote|detached, new_branch?,
// track?} → {ok, git, branches, current_branch, message, stash_name, stashed, restored_stash,
// restore_failed, restore_error, restore_stash}: switches with the changed files parked in a
// stash named "hermes-webui branch switch to <target>", and gives back the one parked when
// leaving the branch now checked out (the original's stash-and-switch).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { stashAndCheckout } from "../../../lib/workspace/git_branches.ts";
import { CheckoutFields } from "../../../lib/workspace/git_checkout_body.ts";

const Body = CheckoutFields.required({ ref: true });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    return json(
      await stashAndCheckout(t, {
        ref: body.ref,
        mode: body.mode ?? "local",
        newBranch: body.new_branch,
        track: body.track,
      }),
    );
  },
};
