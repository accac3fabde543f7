// GET /api/crons → {jobs: [job…]}: every scheduled task with its state and next run.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { listJobs } from "../../lib/tasks/jobs.ts";
import { jobViews } from "../../lib/tasks/job_view.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ jobs: await jobViews(app.db, app.tasks, await listJobs(app.db)) });
  },
};
