// GET /api/session/context?session_id= → {ok, session_id, model, context_window, input_tokens,
// used, suggest_compress}: how full the model's context window was at the chat's last request
// (its input tokens over lib/models/known_models.ts contextWindowFor), for the context ring;
// `suggest_compress` once it passes SUGGEST_AT (before automatic compression kicks in).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { sql } from "../../../lib/storage/db.ts";
import { contextWindowFor } from "../../../lib/models/known_models.ts";
import { pickEndpoint, resolveProviders } from "../../../lib/providers/provider_config.ts";

/** Share of the window at which compression is offered. */
const SUGGEST_AT = 0.6;

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const s = await getSession(app.db, requireParam(url, "session_id"));
    const row = await app.db.get<{ last_input_tokens: number | null }>(
      sql`SELECT last_input_tokens FROM sessions WHERE session_id = ${s.session_id}`,
    );
    const resolved = resolveProviders(app.config, app.log);
    const endpoint = pickEndpoint(resolved, s.model_provider);
    const model = s.model ??
      (endpoint && endpoint === resolved.active ? resolved.defaultModel : endpoint?.models[0]) ??
      null;
    const opts = app.runs.options(app.config);
    const window = model ? contextWindowFor(model, opts.contextWindows) : null;
    const input = Number(row?.last_input_tokens ?? 0);
    const used = window ? Math.min(1, input / window) : 0;
    return json({
      ok: true,
      session_id: s.session_id,
      model,
      context_window: window,
      input_tokens: input,
      used: Math.round(used * 1000) / 1000,
      suggest_compress: used >= SUGGEST_AT,
    });
  },
};
