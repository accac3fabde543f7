// GET /api/session/status?session_id= → {ok, session_id, title, model, model_provider,
// workspace, message_count, is_streaming, active_stream_id, pending_approvals, created_at,
// updated_at, last_message_at}: a summary without the messages (the original's status poll).
// No id → 400; unknown → 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { pendingApprovals } from "../../../lib/approvals/approvals.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const s = await getSession(app.db, requireParam(url, "session_id"));
    return json({
      ok: true,
      session_id: s.session_id,
      title: s.title,
      model: s.model,
      model_provider: s.model_provider,
      workspace: s.workspace,
      message_count: s.message_count,
      is_streaming: s.is_streaming,
      active_stream_id: s.active_stream_id,
      pending_approvals: (await pendingApprovals(app.db, s.session_id)).pending_count,
      yolo_enabled: s.skip_approvals,
      created_at: s.created_at,
      updated_at: s.updated_at,
      last_message_at: s.last_message_at,
    });
  },
};
