// GET /api/crons/history?job_id=&offset=0&limit=50 → {job_id, runs, total, offset, limit}:
// status, start, duration, tokens, cost, the output's first lines and the run's session.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { countRuns, getJob, runHistory } from "../../../lib/tasks/jobs.ts";
import { pageParams, runView } from "../../../lib/tasks/job_view.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const jobId = requireParam(url, "job_id");
    await getJob(app.db, jobId); // a 404 for an unknown job, not an empty history
    const { offset, limit } = pageParams(url, 50);
    return json({
      job_id: jobId,
      runs: (await runHistory(app.db, jobId, offset, limit)).map(runView),
      total: await countRuns(app.db, jobId),
      offset,
      limit,
    });
  },
};
