// POST /api/session/title/regenerate {session_id, prefer_latest?} → {ok, session, title, status,
// raw_preview}: the model (auxiliary, else the session's) titles the chat now, from the first
// exchange (or the latest). The person asked for it, so it replaces even a title they set;
// a failure keeps the old title and says so in `status`. 409 while a run is active.
import { z } from "zod";
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { json, readBody } from "../../../../lib/server/http.ts";
import { getSession } from "../../../../lib/sessions/sessions.ts";
import { ConflictError } from "../../../../lib/errors.ts";

const Body = z.object({ session_id: z.string().min(1), prefer_latest: z.boolean().optional() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    if (session.active_stream_id) {
      throw new ConflictError(`Session "${body.session_id}" is running; try again when it ends`);
    }
    const { generateTitle } = await import("../../../../lib/engine/titles.ts");
    const result = await generateTitle(app, body.session_id, {
      preferLatest: body.prefer_latest === true,
      force: true,
      fetch: app.runs.options(app.config).fetch,
      signal: req.signal,
    });
    return json({ ok: true, session: await getSession(app.db, body.session_id), ...result });
  },
};
