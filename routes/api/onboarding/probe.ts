// POST /api/onboarding/probe {provider, base_url?, api_key?} → {ok, models?, error?}: does the
// endpoint answer with a model list? The URL goes through the SSRF guard; a failure is an
// answer (`ok:false` with the reason), not an HTTP error. A masked or missing key probes with
// the key in force for that provider, and only at that provider's own configured URL.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { effectiveProbeKey, ProbeBody, probeEndpoint } from "../../../lib/settings/onboarding.ts";
import { ValidationError } from "../../../lib/errors.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, ProbeBody);
    if (body.provider === "custom" && !body.base_url) {
      throw new ValidationError(
        'Invalid field "base_url": a custom provider needs the URL of its OpenAI-compatible API',
        "base_url",
      );
    }
    const key = effectiveProbeKey(app.config, body.provider, body.api_key, body.base_url);
    if (body.api_key && key === body.api_key) app.log.addSecret(key);
    return json(await probeEndpoint(body.provider, body.base_url ?? undefined, key));
  },
};
