// GET /api/approval/pending?session_id= → {pending: head|null, pending_count} (a per-session FIFO).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSkipApprovals, pendingApprovals } from "../../../lib/approvals/approvals.ts";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    const skip = getSkipApprovals(app.db, sessionId); // 404 for an unknown session
    return json({ ...pendingApprovals(app.db, sessionId), skip_approvals: skip });
  },
};
