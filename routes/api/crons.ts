// GET /api/crons → {jobs: [job…]}: every scheduled task with its state and next run.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { listJobs } from "../../lib/tasks/jobs.ts";
import { jobView } from "../../lib/tasks/job_view.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    return json({ jobs: listJobs(app.db).map((j) => jobView(app.db, app.tasks, j)) });
  },
};
