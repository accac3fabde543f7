// GET /api/rollback/diff?session_id=&(checkpoint=|tool_call_id=|turn_id=) → {diff, files_changed:
// [{file, status, changed_since, binary}], total_changes, checkpoints}: what a restore would do.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { rollbackTargetFor } from "../../../lib/checkpoints/rollback_target.ts";
import { previewRestore, selectCheckpoints } from "../../../lib/checkpoints/rollback.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const t = await rollbackTargetFor(app, requireParam(url, "session_id"));
    const q = (k: string) => url.searchParams.get(k) ?? undefined;
    const cps = await selectCheckpoints(t.store, t.sessionId, {
      checkpoint: q("checkpoint"),
      tool_call_id: q("tool_call_id"),
      turn_id: q("turn_id"),
    });
    return json(await previewRestore(t.store, t.workspace, t.guard, cps));
  },
};
