// POST /api/chat/steer {session_id, text, stream_id?} → {accepted:true, stream_id} when the note
// will reach the running agent before its next model call (lib/engine/steer.ts), else 200
// {accepted:false, fallback} (nothing running, or the run is ending): the composer then sends
// the text as a normal message. Bad input → 400; unknown session → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { MAX_STEER_CHARS, pushSteer } from "../../../lib/engine/steer.ts";
import { ValidationError } from "../../../lib/errors.ts";

const Body = z.object({
  session_id: z.string().min(1),
  text: z.string().max(MAX_STEER_CHARS),
  stream_id: z.string().min(1).nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const text = body.text.trim();
    if (!text) throw new ValidationError("text is required", "text");
    const session = await getSession(app.db, body.session_id);
    const streamId = session.active_stream_id;
    if (!streamId || (body.stream_id && body.stream_id !== streamId)) {
      return json({ accepted: false, fallback: "not_running" });
    }
    const run = app.runs.get(streamId);
    // A run another replica owns gets the note through the database (lib/replicas/run_leases.ts).
    if (
      !run &&
      await app.runs.leases.forward({ kind: "steer", stream_id: streamId, payload: { text } })
    ) {
      return json({ accepted: true, stream_id: streamId });
    }
    if (!run || !pushSteer(run, text)) return json({ accepted: false, fallback: "run_ending" });
    return json({ accepted: true, stream_id: streamId });
  },
};
