// POST /api/session/yolo {session_id, enabled} → {ok, skip_approvals}. Skipping approvals runs
// dangerous commands without asking; the hardline tier stays blocked regardless.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { setSkipApprovals } from "../../../lib/approvals/approvals.ts";

const Body = z.object({ session_id: z.string().min(1), enabled: z.boolean() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, enabled } = await readBody(req, Body);
    const skip = setSkipApprovals(app.db, session_id, enabled);
    app.log.info("skip approvals switched", { session_id, enabled: skip });
    return json({ ok: true, skip_approvals: skip });
  },
};
