// GET /health → liveness: {status, sessions, active_streams, uptime_seconds, server_started_at,
// pid, accept_loop_alive, accept_loop_heartbeat_at, accept_loop_heartbeat_age_seconds}.
// The accept-loop heartbeat is the time this request was taken off the listener and handled:
// answering at all is the proof the loop is alive, and the age says how stale that proof is.
// GET /health?deep=1 also exercises the database, session, project and state-dir paths
// (lib/server/health_checks.ts) and answers 503 with status "degraded" when one fails.
import type { Handlers } from "../lib/server/file_router.ts";
import { json } from "../lib/server/http.ts";
import { deepHealthChecks } from "../lib/server/health_checks.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const acceptedAt = app.clock();
    const { n } = app.db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number };
    const { active } = app.db.prepare(
      "SELECT count(*) AS active FROM streams WHERE status = 'running'",
    ).get() as {
      active: number;
    };
    const deepAsked = ["1", "true", "yes"].includes(url.searchParams.get("deep") ?? "");
    const deep = deepAsked
      ? await deepHealthChecks({ db: app.db, stateDir: app.config.stateDir })
      : null;
    const now = app.clock();
    return json({
      status: deep && !deep.ok ? "degraded" : "ok",
      sessions: n,
      active_streams: active,
      uptime_seconds: Math.round((now - app.startedAt) * 1000) / 1000,
      server_started_at: app.startedAt,
      pid: Deno.pid,
      accept_loop_alive: true,
      accept_loop_heartbeat_at: acceptedAt,
      accept_loop_heartbeat_age_seconds: Math.round((now - acceptedAt) * 1000) / 1000,
      ...(deep ? { deep: true, checks: deep.checks } : {}),
    }, deep && !deep.ok ? 503 : 200);
  },
};
