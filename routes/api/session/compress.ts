// POST /api/session/compress {session_id, focus_topic?, sync?} summarizes the older turns now.
// Called as the Composer does ({session_id}) it answers at once {ok, stream_id, session_id,
// turn_id, title} and runs like a chat turn (SSE: compressing, compressed, done, stream_end).
// Called as the original's clients do — with `focus_topic` or `sync: true` — it waits for the
// summary and answers {ok, session, summary} (summary null when nothing needed compressing);
// `sync: false` keeps a focused compression a streamed run (the Composer's `/compress <focus>`).
// 409 while another run is active.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { fullSession } from "../../../lib/sessions/sessions.ts";
import { getStream } from "../../../lib/engine/journal.ts";
import { BusyError } from "../../../lib/errors.ts";
import { SHUTTING_DOWN } from "../../../lib/server/live_responses.ts";
import { sql } from "../../../lib/storage/db.ts";

const Body = z.object({
  session_id: z.string().min(1),
  focus_topic: z.string().max(500).nullable().optional(),
  sync: z.boolean().optional(),
});

/** How often a synchronous caller re-reads the run's status. */
const POLL_MS = 50;

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const started = await app.runs.compress(app, body.session_id, body.focus_topic ?? undefined);
    if (body.sync === false || (body.focus_topic === undefined && body.sync !== true)) {
      return json({ ok: true, ...started });
    }
    // The run is journaled and keeps going if this caller leaves; we only wait for its end.
    while ((await getStream(app.db, started.stream_id))?.status === "running") {
      if (req.signal.aborted || app.live.signal.aborted) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    // A long poll must not hold a shutdown (lib/server/live_responses.ts).
    if (app.live.signal.aborted) throw new BusyError(SHUTTING_DOWN);
    const status = (await getStream(app.db, started.stream_id))?.status;
    if (status === "error") {
      return json({
        ok: false,
        error: "Compression failed; the session's stream says why",
        stream_id: started.stream_id,
      }, 502);
    }
    const row = await app.db.get<{ summary: string }>(
      sql`SELECT summary FROM compressions WHERE session_id = ${body.session_id}`,
    );
    return json({
      ok: true,
      session: await fullSession(app.db, body.session_id),
      summary: row?.summary ?? null,
      stream_id: started.stream_id,
    });
  },
};
