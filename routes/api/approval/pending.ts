// GET /api/approval/pending?session_id= → {pending: head|null, pending_count, skip_approvals}
// (a per-session FIFO). A session id is any string up to 128 chars, as in the original: an
// unknown or never-used one simply has nothing pending ({pending: null}), never a 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { pendingApprovals } from "../../../lib/approvals/approvals.ts";
import { approvalSessionId, injectedSnapshot } from "../../../lib/approvals/injected_approvals.ts";
import { findSession } from "../../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const sessionId = approvalSessionId(requireParam(url, "session_id"));
    const session = await findSession(app.db, sessionId);
    if (!session) {
      return json({
        ...injectedSnapshot(app.tools.approvals, sessionId),
        skip_approvals: false,
        yolo_enabled: false,
      });
    }
    const skip = session.skip_approvals === true;
    return json({
      ...(await pendingApprovals(app.db, sessionId)),
      skip_approvals: skip,
      yolo_enabled: skip,
    });
  },
};
