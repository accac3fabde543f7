// GET /api/crons/output?job_id=&limit=5 → {job_id, outputs: [{run_id, status, output_head,
// session_id, finished_at}]}: the latest answers of a job, newest first.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getJob, runHistory } from "../../../lib/tasks/jobs.ts";
import { pageParams, runView } from "../../../lib/tasks/job_view.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const jobId = requireParam(url, "job_id");
    await getJob(app.db, jobId); // a 404 for an unknown job, not an empty list
    const { limit } = pageParams(url, 5);
    const outputs = (await runHistory(app.db, jobId, 0, limit))
      .filter((r) => r.output_head !== null)
      .map((r) => {
        const v = runView(r);
        return {
          run_id: v.run_id,
          status: v.status,
          output_head: v.output_head,
          session_id: v.session_id,
          finished_at: v.finished_at,
        };
      });
    return json({ job_id: jobId, outputs });
  },
};
