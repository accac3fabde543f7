// GET /api/session/delegate?session_id=&tool_call_id= → {ok, child_session_id, tool_calls}: the
// hidden child session a `delegate` call ran in and its tool calls (the nested card of a
// settled turn). No ids → 400; unknown session, or no child for that call → 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { delegateChildCalls } from "../../../lib/sessions/delegate_sessions.ts";
import { NotFoundError } from "../../../lib/errors.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const s = await getSession(app.db, requireParam(url, "session_id"));
    const callId = requireParam(url, "tool_call_id");
    const found = await delegateChildCalls(app.db, s.session_id, callId);
    if (!found) {
      throw new NotFoundError(`Tool call "${callId}" of session "${s.session_id}" ran no sub-task`);
    }
    return json({ ok: true, ...found });
  },
};
