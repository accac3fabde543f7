// POST /api/crons/create {prompt, schedule, name?, timezone?, workspace?, model?, profile?,
// deliver?, deny_approvals?, skills?} → {ok, job}. The schedule is read in `timezone` (the browser's,
// sent by the Tasks panel), else the server's zone.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { createJob } from "../../../lib/tasks/jobs.ts";
import { JobBody } from "../../../lib/tasks/job_body.ts";
import { jobView } from "../../../lib/tasks/job_view.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, JobBody);
    if (body.workspace) body.workspace = await resolveTrustedWorkspace(app, body.workspace);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    const job = await createJob(app.db, body, app.clock(), zone);
    await app.tasks.rearm();
    return json({ ok: true, job: await jobView(app.db, app.tasks, job) });
  },
};
