// GET /api/sessions → {sessions, archived_count, server_time, server_tz, count}. Without
// `limit`/`cursor` it answers every session, newest updated_at first (the original's clients).
// With them it answers one page (lib/sessions/session_page.ts): pinned first, then newest,
// plus `next_cursor` and `groups` (the recency headers, in the viewer's zone: `tz_offset`
// minutes east of UTC, else the `hermes_tz` cookie, else the server's zone). Filters:
// `archived=0|1|all` (or `include_archived=1`), `project=<id>|none`, `profile`, `tasks`.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, jsonEncodedListStream } from "../../lib/server/http.ts";
import { sessionListChunks } from "../../lib/sessions/session_list_cache.ts";
import { ValidationError } from "../../lib/errors.ts";
import {
  allSessionsInBatches,
  countSessions,
  formatTzOffset,
  listSessionPage,
  MAX_PAGE,
  parseSessionFilter,
  viewerUtcOffset,
} from "../../lib/sessions/session_page.ts";
import { localUtcOffsetMinutes } from "../../lib/shared/session_groups.ts";

export const handler: Handlers = {
  async GET(req, { app, url }) {
    const params = url.searchParams;
    const filter = parseSessionFilter(params);
    const now = app.clock();
    const serverOffset = localUtcOffsetMinutes(now);
    const common = { server_time: now, server_tz: formatTzOffset(serverOffset) };
    const limitParam = params.get("limit");
    const cursor = params.get("cursor");
    if (limitParam === null && !cursor) {
      // Streamed: at 50,000 sessions the answer is ~24 MB, written as its batches are read (the
      // next one only when the client took the last), never whole in memory, and kept encoded
      // while the sessions table is unchanged and it is small enough
      // (lib/sessions/session_list_cache.ts).
      const all = await sessionListChunks(app.db, JSON.stringify(filter), {
        count: () => countSessions(app.db, filter),
        batches: () => allSessionsInBatches(app.db, filter),
      });
      return jsonEncodedListStream("sessions", all.chunks, {
        // The archive's total (what archivedCount() in sessions.ts answers).
        archived_count: await countSessions(app.db, { archived: "only" }),
        ...common,
        count: all.count,
        next_cursor: null,
      });
    }
    let limit: number | undefined;
    if (limitParam !== null) {
      limit = Number(limitParam);
      if (!/^\d+$/.test(limitParam) || limit < 1 || limit > MAX_PAGE) {
        throw new ValidationError(
          `Invalid limit "${limitParam.slice(0, 20)}": use a whole number from 1 to ${MAX_PAGE}`,
          "limit",
        );
      }
    }
    const page = await listSessionPage(app.db, filter, {
      limit,
      cursor,
      now,
      utcOffsetMinutes: viewerUtcOffset(params, req.headers.get("cookie"), serverOffset),
    });
    return json({
      sessions: page.sessions,
      archived_count: page.archived_count,
      ...common,
      count: page.count,
      next_cursor: page.next_cursor,
      groups: page.groups,
    });
  },
};
