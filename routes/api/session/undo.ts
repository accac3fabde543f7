// POST /api/session/undo {session_id} → {ok, session, removed_count, text}: drops the last turn
// (the last user message and everything after it); `text` is that message, for re-editing.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { fullSession, undoLastTurn } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    const { removed, text } = undoLastTurn(app.db, app.clock, session_id);
    return json({
      ok: true,
      session: fullSession(app.db, session_id),
      removed_count: removed,
      text,
    });
  },
};
