// GET /api/session/yolo?session_id= → {ok, session_id, yolo_enabled, skip_approvals};
// POST /api/session/yolo {session_id, enabled} → the same. Skipping approvals runs dangerous
// commands without asking; the hardline tier stays blocked regardless. `yolo_enabled` is the
// original's name; `skip_approvals` stays as an alias for this console's clients.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody, requireParam } from "../../../lib/server/http.ts";
import { getSkipApprovals, setSkipApprovals } from "../../../lib/approvals/approvals.ts";

const Body = z.object({ session_id: z.string().min(1), enabled: z.boolean() });

const answer = (session_id: string, on: boolean) =>
  json({ ok: true, session_id, yolo_enabled: on, skip_approvals: on });

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    return answer(sessionId, await getSkipApprovals(app.db, sessionId));
  },
  async POST(req, { app }) {
    const { session_id, enabled } = await readBody(req, Body);
    const skip = await setSkipApprovals(app.db, session_id, enabled);
    app.log.info("skip approvals switched", { session_id, enabled: skip });
    return answer(session_id, skip);
  },
};
