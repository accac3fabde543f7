// GET /api/background/status?session_id= → {tasks, results}: every background task of the
// session (running and finished, oldest first) and, as in the original, `results` = the
// finished ones ({task_id, prompt, answer, completed_at, status}). Unknown session → 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { listBackground } from "../../../lib/engine/background_tasks.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    const tasks = await listBackground(app.db, session.session_id);
    const results = tasks.filter((t) => t.status !== "running").map((t) => ({
      task_id: t.task_id,
      prompt: t.prompt,
      answer: t.answer,
      completed_at: t.completed_at,
      status: t.status,
    }));
    return json({ tasks, results });
  },
};
