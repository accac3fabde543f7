// GET /api/approval/inbox → {approvals:[approval + session_title, position], count, sessions}:
// the pending approvals of every session, oldest first (the sidebar badge and inbox panel).
// Answer one with POST /api/approval/respond {session_id, approval_id, choice, command?}.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { approvalInbox } from "../../../lib/approvals/approval_inbox.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json(await approvalInbox(app.db));
  },
};
