// GET /api/attention[?streams=id,id] → {waiting, running, ended, notify, sound}: what needs the person
// across every chat (pending approvals and clarifying questions), the runs in progress, how the
// listed streams ended, and whether they asked for system notifications (`notifications_enabled`)
// and a chime with them (`sound_enabled`, the original's key).
// Polled by the page's tab title, favicon and notifications (lib/browser/attention.ts).
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { MAX_WATCHED_STREAMS, readAttention } from "../../lib/approvals/attention.ts";
import { readPreferences } from "../../lib/settings/settings.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const streams = (url.searchParams.get("streams") ?? "").split(",")
      .map((s) => s.trim()).filter((s) => s && s.length <= 128).slice(0, MAX_WATCHED_STREAMS);
    const prefs = await readPreferences(app.db);
    return json({
      ...(await readAttention(app.db, app.tools.clarify, streams)),
      notify: prefs.notifications_enabled === true,
      sound: prefs.sound_enabled === true,
    });
  },
};
