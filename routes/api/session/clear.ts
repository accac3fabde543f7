// POST /api/session/clear {session_id} → {ok, session}: empties the transcript and resets the
// title to "Untitled" (as the original does), keeping the session's settings.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import {
  clearSession,
  fullSession,
  renameSession,
  UNTITLED,
} from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    await clearSession(app.db, app.clock, session_id);
    await renameSession(app.db, app.clock, session_id, UNTITLED);
    return json({ ok: true, session: await fullSession(app.db, session_id) });
  },
};
