// GET /api/logs?level=WARN&q=text&after=<seq>&limit=200 → {logs: [{seq, time, level, message,
// fields?}], last_seq}: the server's own recent log lines (a bounded ring, redacted when they
// were written), at or above `level`, containing `q`, newest last.
// GET /api/logs?file=agent|errors|gateway&tail=100|200|500|1000 → the original's answer,
// {file, tail, lines, truncated, total_bytes, mtime, hint}: the tail of that log file in the
// active profile's `logs/` folder (lib/server/log_file_tail.ts). Either parameter selects this
// form, so the original's clients and ours share the path without guessing.
import { join } from "node:path";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { ValidationError } from "../../lib/errors.ts";
import type { LogLevel } from "../../lib/log.ts";
import { activeProfileName, profileHome } from "../../lib/agent/profiles.ts";
import { readLogFileTail } from "../../lib/server/log_file_tail.ts";

const RANK: Record<LogLevel, number> = { INFO: 0, WARN: 1, ERROR: 2 };

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const p = url.searchParams;
    if (p.has("file") || p.has("tail")) {
      const home = profileHome(app.config, await activeProfileName(app.db, app.config));
      return json(await readLogFileTail(join(home, "logs"), p.get("file"), p.get("tail")));
    }
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
