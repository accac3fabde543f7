// POST /api/onboarding/probe {provider?, base_url?, api_key?} → 200 {ok, code, provider,
// base_url, models?, error?} for every outcome: does the endpoint answer with a model list?
// `code` is ok | invalid_url (empty or non-http base) | dns | connection_refused | timeout |
// tls | unreachable | auth | not_found | http_error | invalid_response | missing_key |
// invalid_key | blocked (the SSRF guard). A masked or missing key probes with the key in force
// for that provider, and only at that provider's own configured URL.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { CompatProbeBody, probeCompat } from "../../../lib/settings/onboarding_compat.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, CompatProbeBody);
    return json(await probeCompat(app, body));
  },
};
