// POST /api/session/clear {session_id} → {ok, session}: empties the transcript, keeps settings.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { clearSession } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    return json({ ok: true, session: clearSession(app.db, app.clock, session_id) });
  },
};
