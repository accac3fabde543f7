// GET /api/chat/stream/status?stream_id= → {active, stream_id, replay_available}: whether the run
// is still going in this process, and whether its journal can be replayed.
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../../lib/server/http.ts";
import { getStream, lastSeq } from "../../../../lib/engine/journal.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const streamId = requireParam(url, "stream_id");
    const run = app.runs.get(streamId);
    const row = await getStream(app.db, streamId);
    const seq = row ? await lastSeq(app.db, streamId) : 0;
    return json({
      // Running here, or on another replica sharing the database.
      active: (!!run && !run.finished) ||
        (app.runs.leases.bus.shared && row?.status === "running"),
      stream_id: streamId,
      replay_available: seq > 0,
      ...(row ? { status: row.status, session_id: row.session_id, last_seq: seq } : {}),
    });
  },
};
