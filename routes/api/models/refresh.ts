// POST /api/models/refresh {provider} → {ok, provider}: forget the catalog (memory and disk,
// superseding any rebuild in flight) so the next GET /api/models probes again. An unknown
// provider id is a 404; `"all"` refreshes every provider; no provider → 400 (API.md and the
// original require it).
import { z } from "zod";
import { NotFoundError } from "../../../lib/errors.ts";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody, validate } from "../../../lib/server/http.ts";
import { invalidateModelCatalog } from "../../../lib/models/model_catalog.ts";
import { resolveProviders } from "../../../lib/providers/provider_config.ts";

const Body = z.object({
  provider: z.string({ error: 'give a provider id, or "all"' }).trim().min(1).max(200),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { provider } = req.body ? await readBody(req, Body) : validate(Body, {});
    if (provider !== "all") {
      const known = resolveProviders(app.config).endpoints.some((e) => e.id === provider);
      if (!known) throw new NotFoundError(`Unknown provider "${provider}"`);
    }
    await invalidateModelCatalog(app.models, provider === "all" ? undefined : provider);
    return json({ ok: true, provider });
  },
};
