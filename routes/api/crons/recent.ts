// GET /api/crons/recent?since=<epoch seconds> → {completions: [run…], since}: runs that ended
// after `since`, for the page to notify about finished tasks.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { recentRuns } from "../../../lib/tasks/jobs.ts";
import { runView } from "../../../lib/tasks/job_view.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const raw = Number(url.searchParams.get("since") ?? 0);
    const since = Number.isFinite(raw) ? raw : 0;
    return json({ completions: (await recentRuns(app.db, since)).map(runView), since });
  },
};
