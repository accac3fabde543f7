// GET /api/crons/status?job_id= → {job_id, running, elapsed}; without job_id →
// {running: {job_id: elapsed seconds}} for every job with a run going.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { getJob, runningRun, runningRuns } from "../../../lib/tasks/jobs.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const now = app.clock();
    const jobId = url.searchParams.get("job_id");
    if (jobId) {
      await getJob(app.db, jobId); // a 404 for an unknown job
      const run = await runningRun(app.db, jobId);
      const elapsed = run !== null ? Math.round((now - run.started_at) * 10) / 10 : 0;
      return json({ job_id: jobId, running: run !== null, elapsed });
    }
    const rows = await runningRuns(app.db);
    return json({
      running: Object.fromEntries(
        rows.map((r) => [r.job_id, Math.round((now - r.started_at) * 10) / 10]),
      ),
    });
  },
};
