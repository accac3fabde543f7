// GET /api/onboarding/status → {needed, has_provider, detected:{ollama, lmstudio}, config_path,
// workspace, …}: whether the first-run wizard should show, and what it can offer.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { onboardingStatus } from "../../../lib/settings/onboarding.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json(await onboardingStatus(app));
  },
};
