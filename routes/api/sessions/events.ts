// GET /api/sessions/events → text/event-stream of `sessions_changed` events
// ({type, version, reason, session_id?}) on every change to the sessions list (create, rename,
// update, delete, pin, archive, move, clear, run start/end), with a keep-alive comment every
// 15 s. The sidebar re-fetches its first page on each; closing the connection unsubscribes.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { sessionEvents, sessionEventsResponse } from "../../../lib/sessions/session_events.ts";

const closeHooked = new WeakSet<object>();

export const handler: Handlers = {
  GET(_req, { app }) {
    const hub = sessionEvents(app.db);
    if (!closeHooked.has(hub)) {
      closeHooked.add(hub);
      app.onClose.push(() => hub.close());
    }
    // A client going away cancels the body, which unsubscribes (req.signal is not used: in
    // Deno.serve it also fires on responses delivered in full).
    return sessionEventsResponse(hub);
  },
};
