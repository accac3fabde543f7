// GET /api/models → {active_provider, default_model, groups:[{provider, provider_id, models,
// unreachable?, error?, pending?}], source, refreshing?}. Waits at most the rebuild budget for
// live discovery (seed §4.11); past it, the last catalog or the static one.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json(await app.models.getModels());
  },
};
