// POST /api/session/rename {session_id, title} → {session}; trimmed, ≤80 chars, blank → "Untitled".
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { renameSession } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1), title: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, title } = await readBody(req, Body);
    return json({ session: await renameSession(app.db, app.clock, session_id, title) });
  },
};
