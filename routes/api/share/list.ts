// GET /api/share/list[?session_id=] → {shares: [...]}: every link, newest first, revoked and
// expired ones marked `active: false` (the Control Center's Sharing tab lists them).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { listShares } from "../../../lib/sharing/shares.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const sessionId = url.searchParams.get("session_id") || undefined;
    return json({ shares: await listShares(app.db, app.clock, sessionId) });
  },
};
