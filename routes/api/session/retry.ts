// POST /api/session/retry {session_id} → {stream_id, session_id, turn_id, title}: drops the last
// answer (everything after the last user message) and runs that message again, like chat/start.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    return json(app.runs.retry(app, session_id));
  },
};
