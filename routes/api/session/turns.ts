// GET /api/session/turns?session_id= → {turns: [{user_idx, turn_id, asked_at, answered_at,
// input_tokens, output_tokens, cached_tokens, cost, model, metered, estimated, tokens_per_s}]}:
// the times, metered tokens, speed and cost of each turn (lib/sessions/turn_meta.ts), for the
// message footers and the token and speed badges.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { turnMeta } from "../../../lib/sessions/turn_meta.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const s = await getSession(app.db, requireParam(url, "session_id"));
    return json({ turns: await turnMeta(app.db, s.session_id) });
  },
};
