// POST /api/onboarding/setup {provider, model, api_key?, base_url?, confirm_overwrite?} → the
// onboarding status (as GET /api/onboarding/status). Writes the provider to config.yaml and the
// key to the `.env` beside it under the provider's variable (OPENROUTER_API_KEY…), as the
// original does. An existing config needs confirm_overwrite (else 200 {ok:false, error:
// "config_exists", message, requires_confirm:true}, as the original); a custom provider without
// base_url, a key with a newline, or a provider with no key anywhere → 400. Rules:
// lib/settings/onboarding_compat.ts.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { applyOnboardingSetup, SetupBody } from "../../../lib/settings/onboarding_compat.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, SetupBody);
    return json(await applyOnboardingSetup(app, body));
  },
};
