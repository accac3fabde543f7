// POST /api/onboarding/probe {provider?, base_url?, api_key?} → 200 for every outcome, in the
// original's shape: {ok:true, models:[{id, label}], status} or {ok:false, error, detail, status?},
// with the provider and base_url probed. `error` is invalid_url (empty, hostless or non-http base)
// | dns | connect_refused | timeout | http_4xx | http_5xx (with `status`) | parse | unreachable,
// or one of ours: blocked (the SSRF guard), missing_key, invalid_key. A masked or missing key
// probes with the key in force for that provider, and only at that provider's own configured URL.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { CompatProbeBody, probeCompat } from "../../../lib/settings/onboarding_compat.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, CompatProbeBody);
    return json(await probeCompat(app, body));
  },
};
