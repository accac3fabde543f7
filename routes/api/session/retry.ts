// POST /api/session/retry {session_id} → {ok, last_user_text, removed_count, stream_id,
// session_id, turn_id, title}: drops the last answer (everything after the last user message)
// and runs that message again, like chat/start. The original only answered the first three
// fields (its client re-sent the text); they are kept so its scripts read what they expect.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { contentText, listMessages } from "../../../lib/sessions/messages.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    const before = await listMessages(app.db, session_id);
    const lastUser = before.findLast((m) => m.role === "user");
    const started = await app.runs.retry(app, session_id);
    return json({
      ok: true,
      last_user_text: lastUser ? contentText(lastUser.content) : "",
      removed_count: lastUser ? before.filter((m) => m.idx > lastUser.idx).length : 0,
      ...started,
    });
  },
};
