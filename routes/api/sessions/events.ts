// GET /api/sessions/events → text/event-stream of `sessions_changed` events
// ({type, version, reason, session_id?}) on every change to the sessions list (create, rename,
// update, delete, pin, archive, move, clear, run start/end), with a keep-alive comment every
// 15 s. The sidebar re-fetches its first page on each; closing the connection unsubscribes.
// With `?watch=<session_id>` the stream instead carries `workspace_changed` events
// ({type, session_id, workspace, paths, truncated}: workspace-relative paths, debounced) for
// that session's workspace; the watcher closes when its last stream does.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { sessionEvents, sessionEventsResponse } from "../../../lib/sessions/session_events.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { workspaceWatchers } from "../../../lib/workspace/workspace_watcher.ts";

const closeHooked = new WeakSet<object>();

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const hub = sessionEvents(app.db);
    if (!closeHooked.has(hub)) {
      closeHooked.add(hub);
      app.onClose.push(() => hub.close());
      app.onClose.push(() => workspaceWatchers(app.db).closeAll());
    }
    const watch = url.searchParams.get("watch");
    if (watch !== null) {
      const session = await getSession(app.db, watch); // unknown → 404 before the stream opens
      const watchers = workspaceWatchers(app.db);
      return sessionEventsResponse(null, {
        sources: [
          (send) =>
            watchers.subscribe(
              session.workspace,
              (e) => send("workspace_changed", { ...e, session_id: session.session_id }),
              app.config,
            ),
        ],
      });
    }
    // A client going away cancels the body, which unsubscribes (req.signal is not used: in
    // Deno.serve it also fires on responses delivered in full).
    return sessionEventsResponse(hub);
  },
};
