// POST /api/session/duplicate {session_id} → {ok, session}: a full copy under a new id.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { duplicateSession } from "../../../lib/sessions/session_copies.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    const session = await duplicateSession(app.db, app.clock, session_id);
    return json({ ok: true, session, session_id: session.session_id, title: session.title });
  },
};
