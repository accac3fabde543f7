// GET /api/rollback/list?session_id= → {session_id, checkpoints: [{id, turn_id, tool_call_id, tool,
// created_at, restored_at, omitted, files: [{path, status, restorable}]}]}, oldest first.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { rollbackTargetFor } from "../../../lib/checkpoints/rollback_target.ts";
import { listCheckpoints } from "../../../lib/checkpoints/rollback.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const t = await rollbackTargetFor(app, requireParam(url, "session_id"));
    return json({
      session_id: t.sessionId,
      checkpoints: await listCheckpoints(t.store, t.sessionId),
    });
  },
};
