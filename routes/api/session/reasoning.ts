// GET /api/session/reasoning?session_id= → {ok, session_id, reasoning_effort, effective}
// POST /api/session/reasoning {session_id, effort: none|low|medium|high|default|null} → same.
// The chat's own effort (`/reasoning`), sent as chat-completions `reasoning_effort` or an
// Anthropic thinking budget; null follows config.yaml (`effective` says what a turn will use).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { sessionReasoning, setSessionReasoning } from "../../../lib/sessions/session_reasoning.ts";
import type { AppContext } from "../../../lib/server/app_context.ts";

const Body = z.object({
  session_id: z.string().min(1),
  effort: z.string().max(20).nullable(),
});

async function answer(app: AppContext, sessionId: string): Promise<Response> {
  const own = await sessionReasoning(app.db, sessionId);
  return json({
    ok: true,
    session_id: sessionId,
    reasoning_effort: own,
    effective: own ?? app.runs.options(app.config).reasoning ?? null,
  });
}

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const id = requireParam(url, "session_id");
    await getSession(app.db, id);
    return await answer(app, id);
  },
  async POST(req, { app }) {
    const { session_id, effort } = await readBody(req, Body);
    await setSessionReasoning(app.db, session_id, effort);
    return await answer(app, session_id);
  },
};
