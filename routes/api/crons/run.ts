// POST /api/crons/run {job_id} → {ok, job, run}: run now (skipped, and says so, when the
// previous run is still going). GET /api/crons/run?job_id=&run_id= → {run}: one run's detail.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody, requireParam } from "../../../lib/server/http.ts";
import { getJob, getRun } from "../../../lib/tasks/jobs.ts";
import { JobIdBody } from "../../../lib/tasks/job_body.ts";
import { jobView, runView } from "../../../lib/tasks/job_view.ts";
import { NotFoundError, ValidationError } from "../../../lib/errors.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const { job_id } = await readBody(req, JobIdBody);
    const run = await app.tasks.runNow(job_id);
    return json({
      ok: true,
      job: await jobView(app.db, app.tasks, await getJob(app.db, job_id)),
      run: runView(run),
    });
  },
  async GET(_req, { app, url }) {
    const jobId = requireParam(url, "job_id");
    const runId = Number(requireParam(url, "run_id"));
    if (!Number.isInteger(runId)) throw new ValidationError("run_id must be an integer");
    const run = await getRun(app.db, jobId, runId);
    if (run === null) throw new NotFoundError(`No run ${runId} of scheduled task "${jobId}"`);
    return json({ run: runView(run) });
  },
};
