// GET /api/background/events?session_id= → text/event-stream of `bg_task_complete` events
// (a BackgroundTask: {task_id, session_id, parent_session_id, status, answer, …}) as the
// session's background tasks end, with a keep-alive comment every 15 s. Unknown session → 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { sessionEventsResponse } from "../../../lib/sessions/session_events.ts";
import { onBackgroundComplete } from "../../../lib/engine/background_tasks.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    return sessionEventsResponse(null, {
      sources: [
        (send) =>
          Promise.resolve(
            onBackgroundComplete(app.db, session.session_id, (t) => send("bg_task_complete", t)),
          ),
      ],
    });
  },
};
