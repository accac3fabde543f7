// GET /api/chat/cancel?stream_id= → {ok:true, cancelled, stream_id}. Idempotent: cancelling a
// finished or unknown stream answers cancelled:false. The partial answer is kept and the
// session is free for a new message at once.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const streamId = requireParam(url, "stream_id");
    const cancelled = await app.runs.cancel(streamId);
    return json({ ok: true, cancelled, stream_id: streamId });
  },
};
