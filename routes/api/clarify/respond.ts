// POST /api/clarify/respond {session_id, clarify_id?, response} → {ok, response}; no open
// question (or a different clarify_id) → 409.
import { z } from "zod";
import { forwardClarifyAnswer } from "../../../lib/replicas/replica_commands.ts";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { respondClarify } from "../../../lib/approvals/clarify.ts";

const Body = z.object({
  session_id: z.string().min(1),
  clarify_id: z.string().min(1).optional(),
  response: z.string().max(20_000),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const answer = {
      sessionId: body.session_id,
      clarifyId: body.clarify_id,
      response: body.response,
    };
    // The question may be waiting on another replica (it owns the session's run).
    if (!app.tools.clarify.open.has(body.session_id) && await forwardClarifyAnswer(app, answer)) {
      return json({ ok: true, response: body.response });
    }
    return json(respondClarify(app.tools.clarify, answer));
  },
};
