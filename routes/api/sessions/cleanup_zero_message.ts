// POST /api/sessions/cleanup_zero_message → {ok, cleaned, skipped_active}: removes every
// conversation without a single message, whatever its title (the original's route); a session
// with a live run is left alone and counted in skipped_active. lib/sessions/session_cleanup.ts.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { sweepEmptySessions } from "../../../lib/sessions/session_cleanup.ts";

export const handler: Handlers = {
  async POST(_req, { app }) {
    return json({ ok: true, ...(await sweepEmptySessions(app, { zeroOnly: true })) });
  },
};
