// GET /api/chat/stream?stream_id=[&after_seq=N] (or Last-Event-ID: <stream_id>:<seq>) →
// text/event-stream: the journal after the cursor, then live events, closing after a terminal
// event. Unknown stream with nothing to replay → 404 {"error":"stream not found"}.
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { requireParam } from "../../../../lib/server/http.ts";
import { ValidationError } from "../../../../lib/errors.ts";
import { parseLastEventId } from "../../../../lib/shared/chat_events.ts";
import { streamResponse } from "../../../../lib/engine/sse.ts";

export const handler: Handlers = {
  async GET(req, { app, url }) {
    const streamId = requireParam(url, "stream_id");
    const raw = url.searchParams.get("after_seq");
    let after = 0;
    if (raw !== null && raw !== "") {
      after = Number(raw);
      if (!Number.isInteger(after) || after < 0) {
        throw new ValidationError(
          `Invalid "after_seq": expected a non-negative integer, got "${raw}"`,
          "after_seq",
        );
      }
    }
    const fromHeader = parseLastEventId(req.headers.get("last-event-id"), streamId);
    if (fromHeader !== null) after = Math.max(after, fromHeader);
    return await streamResponse(
      {
        db: app.db,
        run: app.runs.get(streamId),
        heartbeatMs: app.runs.options(app.config).heartbeatMs,
        bus: app.runs.leases.bus,
        followers: app.runs.leases,
      },
      streamId,
      after,
    );
  },
};
