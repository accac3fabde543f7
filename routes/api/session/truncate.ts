// POST /api/session/truncate {session_id, keep_count} → {ok, session (with the kept messages),
// removed_count}: keeps the first `keep_count` messages and drops the rest (the original's
// "edit from here"). A missing field → 400; unknown session → 404; 409 while streaming.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { fullSession, getSession } from "../../../lib/sessions/sessions.ts";
import { truncateMessages } from "../../../lib/sessions/messages.ts";
import { ConflictError } from "../../../lib/errors.ts";

const Body = z.object({
  session_id: z.string().min(1),
  keep_count: z.number().int().min(0),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, keep_count } = await readBody(req, Body);
    const removed = await app.db.transaction(async (tx) => {
      const s = await getSession(tx, session_id);
      if (s.active_stream_id) {
        throw new ConflictError(`Cannot truncate session "${session_id}" while it is streaming`, {
          active_stream_id: s.active_stream_id,
        });
      }
      return await truncateMessages(tx, session_id, keep_count, app.clock());
    });
    return json({
      ok: true,
      session: await fullSession(app.db, session_id),
      removed_count: removed,
    });
  },
};
