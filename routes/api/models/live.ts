// GET /api/models/live?provider=<id> → {ok, provider, models:[{id, label}], count} or
// {ok:false, provider, error}: the provider's model list asked live (guarded catalog probe),
// bypassing the catalog's cache. Unknown provider → 404; no provider → 400.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import {
  endpointForTest,
  getProvider,
  probeEndpoint,
} from "../../../lib/providers/provider_admin.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const provider = requireParam(url, "provider");
    const row = getProvider(app.config, provider);
    const endpoint = await endpointForTest(app.config, { provider: row.id });
    const result = await probeEndpoint(endpoint);
    return json(
      result.ok
        ? { ok: true, provider: row.id, models: result.models, count: result.models.length }
        : { ok: false, provider: row.id, models: [], error: result.error },
    );
  },
};
