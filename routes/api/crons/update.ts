// POST /api/crons/update {job_id, …fields of create} → {ok, job}.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { updateJob } from "../../../lib/tasks/jobs.ts";
import { JobBody, JobIdBody } from "../../../lib/tasks/job_body.ts";
import { jobView } from "../../../lib/tasks/job_view.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";

const Body = JobBody.extend(JobIdBody.shape);

export const handler: Handlers = {
  async POST(req, { app }) {
    const { job_id, ...fields } = await readBody(req, Body);
    if (fields.workspace) fields.workspace = await resolveTrustedWorkspace(app, fields.workspace);
    const job = await updateJob(app.db, job_id, fields, app.clock());
    await app.tasks.rearm();
    return json({ ok: true, job: await jobView(app.db, app.tasks, job) });
  },
};
