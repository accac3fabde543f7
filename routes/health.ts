// GET /health → liveness: {status, sessions, active_streams, uptime_seconds, server_started_at,
// pid, accept_loop_alive, accept_loop_heartbeat_at, accept_loop_heartbeat_age_seconds}.
// The accept-loop heartbeat is the time this request was taken off the listener and handled:
// answering at all is the proof the loop is alive, and the age says how stale that proof is.
// GET /health?deep=1 also exercises the database, session, project and state-dir paths
// (lib/server/health_checks.ts) and answers 503 with status "degraded" when one fails.
// The two counts wait at most DATABASE_WAIT_MS: a database that stalls makes /health say
// "degraded" (with `database_error`) and null counts, quickly, instead of hanging the probe.
import type { Handlers } from "../lib/server/file_router.ts";
import { json } from "../lib/server/http.ts";
import { deepHealthChecks } from "../lib/server/health_checks.ts";
import { type Db, sql } from "../lib/storage/db.ts";

const DATABASE_WAIT_MS = 1_000;

async function counts(db: Db): Promise<{ sessions: number; active: number }> {
  const [sessions, active] = await Promise.all([
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`),
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM streams WHERE status = 'running'`),
  ]);
  return { sessions: sessions?.n ?? 0, active: active?.n ?? 0 };
}

/** The counts, or why they could not be had within `ms`. */
async function countsWithin(db: Db, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the database did not answer within ${ms} ms`)),
      ms,
    );
  });
  try {
    return { ...(await Promise.race([counts(db), late])), error: null };
  } catch (err) {
    return { sessions: null, active: null, error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const acceptedAt = app.clock();
    const database = await countsWithin(app.db, DATABASE_WAIT_MS);
    const deepAsked = ["1", "true", "yes"].includes(url.searchParams.get("deep") ?? "");
    const deep = deepAsked
      ? await deepHealthChecks({ db: app.db, stateDir: app.config.stateDir })
      : null;
    const now = app.clock();
    const degraded = (deep && !deep.ok) || database.error !== null;
    return json({
      status: degraded ? "degraded" : "ok",
      sessions: database.sessions,
      active_streams: database.active,
      ...(database.error ? { database_error: database.error } : {}),
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
