// POST /api/crons/delete {job_id} → {ok}. History goes with the job; its sessions stay.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { deleteJob } from "../../../lib/tasks/jobs.ts";
import { JobIdBody } from "../../../lib/tasks/job_body.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const { job_id } = await readBody(req, JobIdBody);
    await deleteJob(app.db, job_id);
    await app.tasks.rearm();
    return json({ ok: true });
  },
};
