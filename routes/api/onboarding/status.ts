// GET /api/onboarding/status → the original's shape — {completed, settings{default_model,
// default_workspace, password_enabled, bot_name}, system{chat_ready, setup_state, provider_ready,
// provider_configured, provider_note, current_*, config_path, config_exists, config_error,
// env_path…}, setup{providers, categories, current…}, workspaces{items, last}} — plus the
// console wizard's fields {needed, has_provider, detected:{ollama, lmstudio}, providers, …}.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { compatOnboardingStatus } from "../../../lib/settings/onboarding_compat.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json(await compatOnboardingStatus(app));
  },
};
