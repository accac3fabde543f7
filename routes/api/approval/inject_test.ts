// GET /api/approval/inject_test?session_id=&pattern_key=&command= → {ok:true}. Test hook (only
// with HERMES_WEBUI_TEST_HOOKS=1, 404 otherwise): queues a pending approval as a run would,
// without a run waiting on it, so UIs and scripts can exercise the approval flow.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { NotFoundError } from "../../../lib/errors.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { requestApproval } from "../../../lib/approvals/approvals.ts";
import { type PatternKey, PATTERNS } from "../../../lib/approvals/command_policy.ts";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    if (!app.config.testHooks) throw new NotFoundError();
    const sessionId = requireParam(url, "session_id");
    const patternKey = url.searchParams.get("pattern_key") || "rm_recursive";
    const command = url.searchParams.get("command") || "rm -rf build/";
    const description = PATTERNS[patternKey as PatternKey]?.description ?? patternKey;
    // Fire and forget: the answer (or the timeout) settles it; nobody is waiting.
    const decided = requestApproval(app, {
      sessionId,
      command,
      description,
      patternKey,
      patternKeys: [patternKey],
      forceQueue: true,
    });
    decided.catch(() => {});
    return json({ ok: true });
  },
};
