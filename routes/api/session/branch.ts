// POST /api/session/branch {session_id, keep_count?, title?} → {ok, session, session_id, title,
// parent_session_id}: a fork keeping the first keep_count messages (all when omitted).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { branchSession } from "../../../lib/sessions/session_copies.ts";

const Body = z.object({
  session_id: z.string().min(1),
  keep_count: z.number().int().nonnegative().nullable().optional(),
  title: z.string().nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await branchSession(app.db, app.clock, body.session_id, {
      keepCount: body.keep_count ?? undefined,
      title: body.title ?? undefined,
    });
    return json({
      ok: true,
      session,
      session_id: session.session_id,
      title: session.title,
      parent_session_id: session.parent_session_id,
    });
  },
};
