// POST /api/session/compress {session_id} → {ok, stream_id, session_id, turn_id, title}: summarize
// the older turns now. Runs like a chat turn (SSE: compressing, compressed, done, stream_end) so
// the page follows it the same way; 409 while another run is active.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    return json({ ok: true, ...app.runs.compress(app, session_id) });
  },
};
