// POST /api/session/pin {session_id, pinned} → {ok, session}; a pin past the
// pinned_sessions_limit setting (default 3) is a 400.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { pinSession } from "../../../lib/sessions/sessions.ts";
import { pinnedSessionsLimit } from "../../../lib/settings/settings.ts";

const Body = z.object({ session_id: z.string().min(1), pinned: z.boolean().default(true) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, pinned } = await readBody(req, Body);
    const limit = await pinnedSessionsLimit(app.db);
    return json({
      ok: true,
      session: await pinSession(app.db, app.clock, session_id, pinned, limit),
    });
  },
};
