// POST /api/providers/test {provider, name?, base_url?, api_key?, headers?} → {ok, provider,
// models:[{id, label}], count} or {ok:false, error, unreachable}: "Test connection" asks the
// endpoint for its model list through the guarded catalog probe. Unsaved form values are laid
// over the saved provider (a masked key means the stored one); a base_url is checked first.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import {
  endpointForTest,
  probeEndpoint,
  providerBodySchema,
} from "../../../lib/providers/provider_admin.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, providerBodySchema);
    const endpoint = await endpointForTest(app.config, body);
    const result = await probeEndpoint(endpoint);
    return json(
      result.ok
        ? { ok: true, provider: endpoint.id, models: result.models, count: result.models.length }
        : {
          ok: false,
          provider: endpoint.id,
          error: result.error,
          unreachable: result.unreachable,
        },
    );
  },
};
