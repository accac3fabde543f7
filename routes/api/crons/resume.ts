// POST /api/crons/resume {job_id} → {ok, job}.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { updateJob } from "../../../lib/tasks/jobs.ts";
import { JobIdBody } from "../../../lib/tasks/job_body.ts";
import { jobView } from "../../../lib/tasks/job_view.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const { job_id } = await readBody(req, JobIdBody);
    const job = await updateJob(app.db, job_id, { enabled: true }, app.clock());
    await app.tasks.rearm();
    return json({ ok: true, job: await jobView(app.db, app.tasks, job) });
  },
};
