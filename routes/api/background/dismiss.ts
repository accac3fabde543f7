// POST /api/background/dismiss {session_id, task_id} → {ok, removed}: forget a background task
// (a running one is cancelled first) and delete its hidden session. Unknown session → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { dismissBackground } from "../../../lib/engine/background_tasks.ts";

const Body = z.object({ session_id: z.string().min(1), task_id: z.string().min(1).max(64) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    await getSession(app.db, body.session_id);
    const removed = await dismissBackground(app, body.session_id, body.task_id);
    return json({ ok: true, removed });
  },
};
