// GET /api/providers → {providers:[{id, display_name, has_key, api_key (masked), base_url,
// models, …}], active_provider, default_model, issue}: every known provider and every named
// custom endpoint. POST /api/providers {provider, name?, base_url?, api_key?, headers?,
// models?} → {ok, provider, display_name, action, created, entry}: create or update it in config.yaml (a masked
// key sent back keeps the stored one; a base_url is SSRF-checked before it is written).
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import {
  getProvider,
  listProviders,
  providerBodySchema,
  saveProvider,
} from "../../lib/providers/provider_admin.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    return json(listProviders(app.config));
  },
  async POST(req, { app }) {
    const body = await readBody(req, providerBodySchema);
    const { id, created } = await saveProvider(app, body);
    const entry = getProvider(app.config, id);
    return json(
      {
        ok: true,
        provider: id,
        display_name: entry.display_name,
        action: created ? "created" : "updated",
        created,
        entry,
      },
      created ? 201 : 200,
    );
  },
};
