// GET /api/clarify/pending?session_id= → {pending: {clarify_id, question, choices,
// choices_offered, session_id, kind}|null, pending_count}: the open clarifying question of a
// session (the original's poll, beside our `clarify` stream event), from the one clarify hub
// (lib/approvals/clarify.ts). A session with nothing open, or none given, answers {pending: null}
// as the original does; a session id longer than 128 characters is a 400.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { pendingClarify } from "../../../lib/approvals/clarify.ts";
import { ValidationError } from "../../../lib/errors.ts";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const sessionId = url.searchParams.get("session_id") ?? "";
    if (sessionId.length > 128) {
      throw new ValidationError("Invalid session_id: at most 128 characters", "session_id");
    }
    const open = sessionId ? pendingClarify(app.tools.clarify, sessionId) : null;
    if (!open) return json({ pending: null, pending_count: 0 });
    const choices = open.choices ?? [];
    return json({
      pending: {
        ...open,
        choices,
        choices_offered: choices,
        session_id: sessionId,
        kind: "clarify",
      },
      pending_count: 1,
    });
  },
};
