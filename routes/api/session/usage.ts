// GET /api/session/usage?session_id= → {ok, session_id, model, input_tokens, output_tokens,
// cache_read_tokens, total_tokens, estimated_cost, turns, estimated_turns}: the session's token
// counts, summed from its metered runs (`estimated_turns`: runs whose provider reported no usage,
// counted as characters ÷ 4). No id → 400; unknown → 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { sql } from "../../../lib/storage/db.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const s = await getSession(app.db, requireParam(url, "session_id"));
    type Num = number | string;
    const row = await app.db.get<{ turns: Num; cached: Num; estimated: Num }>(
      sql`SELECT count(*) AS turns, coalesce(sum(cached_tokens), 0) AS cached,
            count(CASE WHEN estimated <> 0 THEN 1 END) AS estimated
          FROM usage WHERE session_id = ${s.session_id}`,
    );
    const u = {
      turns: Number(row?.turns ?? 0),
      cached: Number(row?.cached ?? 0),
      estimated: Number(row?.estimated ?? 0),
    };
    return json({
      ok: true,
      session_id: s.session_id,
      model: s.model,
      input_tokens: s.input_tokens,
      output_tokens: s.output_tokens,
      cache_read_tokens: u.cached,
      total_tokens: s.input_tokens + s.output_tokens,
      estimated_cost: s.estimated_cost,
      turns: u.turns,
      estimated_turns: u.estimated,
    });
  },
};
