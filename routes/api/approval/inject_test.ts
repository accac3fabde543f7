// GET /api/approval/inject_test?session_id=&pattern_key=&command= → {ok:true}. Test hook (only
// with HERMES_WEBUI_TEST_HOOKS=1, 404 otherwise): queues a pending approval as a run would,
// without a run waiting on it, so UIs and scripts can exercise the approval flow. Like the
// original it takes any session id string (≤128 chars): one with no stored session gets an
// in-memory queue (lib/approvals/injected_approvals.ts) that no run ever reads.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { NotFoundError } from "../../../lib/errors.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { requestApproval } from "../../../lib/approvals/approvals.ts";
import { approvalSessionId, injectApproval } from "../../../lib/approvals/injected_approvals.ts";
import { type PatternKey, PATTERNS } from "../../../lib/approvals/command_policy.ts";
import { findSession } from "../../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    if (!app.config.testHooks) throw new NotFoundError();
    const sessionId = approvalSessionId(requireParam(url, "session_id"));
    const patternKey = (url.searchParams.get("pattern_key") || "rm_recursive").slice(0, 128);
    const command = (url.searchParams.get("command") || "rm -rf build/").slice(0, 4000);
    const description = PATTERNS[patternKey as PatternKey]?.description ?? patternKey;
    if (!(await findSession(app.db, sessionId))) {
      injectApproval(app.tools.approvals, app.clock(), {
        sessionId,
        command,
        description,
        patternKey,
      });
      return json({ ok: true });
    }
    // Answered {ok} once the approval is queued, so a poll right after sees it; the decision
    // itself is not awaited: the answer (or the timeout) settles it, and nobody waits for it.
    await new Promise<void>((queued, failed) => {
      void requestApproval(app, {
        sessionId,
        command,
        description,
        patternKey,
        patternKeys: [patternKey],
        forceQueue: true,
        onQueued: () => queued(),
      }).then(() => queued(), failed);
    });
    return json({ ok: true });
  },
};
