// POST /api/session/archive {session_id, archived} → {ok, session}; updated_at is kept.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { archiveSession } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1), archived: z.boolean().default(true) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, archived } = await readBody(req, Body);
    return json({ ok: true, session: await archiveSession(app.db, session_id, archived) });
  },
};
