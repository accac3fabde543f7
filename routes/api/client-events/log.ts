// POST /api/client-events/log {event, source?, session_id?, stream_id?, visibility_state?,
// url_path?, reason?, ready_state?, online?} → {ok: true, event}: a page's small diagnostic
// event (a dropped stream, a tab hidden mid-run), written to the server log (the original's
// route). Only those fields are kept, each cut short, and a URL keeps its path only
// (lib/server/browser_reports.ts). Bounded: a body over 4 KiB is a 413, one that is not a JSON
// object a 400, and past 30 events a minute from one client the answer is 429
// {ok: false, error: "rate_limited", message}.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readJsonObject } from "../../../lib/server/http.ts";
import {
  CLIENT_EVENTS_PER_MINUTE,
  hitBrowserReportLimit,
  logClientEvent,
  MAX_CLIENT_EVENT_BYTES,
  sanitizeClientEvent,
} from "../../../lib/server/browser_reports.ts";

export const handler: Handlers = {
  async POST(req, { app, remoteAddr }) {
    const body = await readJsonObject(req, MAX_CLIENT_EVENT_BYTES);
    const decision = await hitBrowserReportLimit(app, "events", remoteAddr);
    if (!decision.ok) {
      // The original's body ({ok: false, error: "rate_limited"}), with the reason spelled out.
      return json(
        {
          ok: false,
          error: "rate_limited",
          message: `Too many client events: at most ${CLIENT_EVENTS_PER_MINUTE} a minute; ` +
            `try again in ${decision.retryAfterSeconds} s`,
        },
        429,
        { "retry-after": String(decision.retryAfterSeconds) },
      );
    }
    const event = sanitizeClientEvent(body);
    logClientEvent(app.log, remoteAddr, event);
    return json({ ok: true, event: event.event });
  },
};
