import type { Handlers } from "../lib/server/file_router.ts";
import { json } from "../lib/server/http.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    const { n } = app.db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number };
    const { active } = app.db.prepare(
      "SELECT count(*) AS active FROM streams WHERE status = 'running'",
    ).get() as {
      active: number;
    };
    const now = app.clock();
    return json({
      status: "ok",
      sessions: n,
      active_streams: active,
      uptime_seconds: Math.round((now - app.startedAt) * 1000) / 1000,
      server_started_at: app.startedAt,
    });
  },
};
