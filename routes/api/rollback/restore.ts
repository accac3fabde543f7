// POST /api/rollback/restore {session_id, checkpoint | tool_call_id | turn_id} → {ok, files_restored,
// errors}: the files go back to their content before the selected call(s). Nothing restorable → 409.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { rollbackTargetFor } from "../../../lib/checkpoints/rollback_target.ts";
import { restoreCheckpoints, selectCheckpoints } from "../../../lib/checkpoints/rollback.ts";

const Body = z.object({
  session_id: z.string().min(1),
  checkpoint: z.string().optional(),
  tool_call_id: z.string().optional(),
  turn_id: z.string().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, ...sel } = await readBody(req, Body);
    const t = await rollbackTargetFor(app, session_id);
    const cps = await selectCheckpoints(t.store, t.sessionId, sel);
    return json(await restoreCheckpoints(t.store, t.workspace, t.guard, cps, app.clock()));
  },
};
