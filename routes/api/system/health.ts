// GET /api/system/health → {ok, uptime_seconds, active_runs, checks: {database, disk, sandbox,
// providers, mcp}} (lib/server/system_health.ts). 200 when the database and disk are fine, 503
// otherwise, so a load balancer can use it too.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { systemHealth } from "../../../lib/server/system_health.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    const report = await systemHealth(app);
    return json(report, report.ok ? 200 : 503);
  },
};
