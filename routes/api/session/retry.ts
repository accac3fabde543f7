// POST /api/session/retry {session_id} → {ok, last_user_text, removed_count}, as in the original:
// the last user message and everything after it leave the transcript, and the client sends the
// text again (chat/start). With nothing to retry: 200 {error: "No previous message to retry."}.
// {run: true} (the console's own pages) instead keeps the user message, drops only the answer
// and runs the message again at once, attachments and all: {ok, last_user_text, removed_count,
// stream_id, session_id, turn_id, title}, like chat/start.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { NO_PREVIOUS_MESSAGE, rewindLastTurn } from "../../../lib/sessions/retry_turn.ts";

const Body = z.object({ session_id: z.string().min(1), run: z.boolean().optional() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, run } = await readBody(req, Body);
    if (run) {
      let dropped = { lastUserText: "", removed: 0 };
      const started = await app.runs.retry(app, session_id, undefined, (d) => (dropped = d));
      return json({
        ok: true,
        last_user_text: dropped.lastUserText,
        removed_count: dropped.removed,
        ...started,
      });
    }
    const rewound = await rewindLastTurn(app.db, app.clock, session_id);
    if (!rewound) return json({ error: NO_PREVIOUS_MESSAGE });
    return json({ ok: true, ...rewound });
  },
};
