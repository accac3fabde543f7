// GET /api/logs?level=WARN&q=text&after=<seq>&limit=200 → {logs: [{seq, time, level, message,
// fields?}], last_seq}: the server's own recent log lines (a bounded ring, redacted when they
// were written), at or above `level`, containing `q`, newest last.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { ValidationError } from "../../lib/errors.ts";
import type { LogLevel } from "../../lib/log.ts";

const RANK: Record<LogLevel, number> = { INFO: 0, WARN: 1, ERROR: 2 };

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const p = url.searchParams;
    const level = (p.get("level") ?? "INFO").toUpperCase();
    if (!(level in RANK)) throw new ValidationError(`level must be INFO, WARN or ERROR`, "level");
    const after = Number(p.get("after") ?? 0);
    const limit = Number(p.get("limit") ?? 200);
    if (!Number.isInteger(after) || after < 0 || !Number.isInteger(limit) || limit < 1) {
      throw new ValidationError("after and limit must be whole numbers (limit at least 1)");
    }
    const q = (p.get("q") ?? "").toLowerCase();
    const all = app.log.recent(after);
    const min = RANK[level as LogLevel];
    const lines = all.filter((l) =>
      RANK[l.level] >= min &&
      (!q || l.message.toLowerCase().includes(q) || (l.fields ?? "").toLowerCase().includes(q))
    );
    return json({
      logs: lines.slice(-Math.min(limit, 2000)),
      last_seq: all.at(-1)?.seq ?? after,
    });
  },
};
