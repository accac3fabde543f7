// POST /api/onboarding/complete. The original's body ({} or none) only persists the
// onboarding_completed flag, touching no other setting, and answers the onboarding status with
// `ok`. The console wizard's body {provider, base_url?, api_key?, model, workspace?, password?}
// → {ok, config_path, provider, default_model}: writes the provider to config.yaml (comments
// and ${ENV} strings kept; a malformed file is refused untouched), stores the workspace and
// password, and reloads the provider config so the choice works without a restart.
import type { Handlers } from "../../../lib/server/file_router.ts";
import {
  json,
  MAX_JSON_BODY_BYTES,
  readBodyBytes,
  readJsonObject,
  validate,
} from "../../../lib/server/http.ts";
import { compatOnboardingStatus } from "../../../lib/settings/onboarding_compat.ts";
import { createLoginSession, sessionCookie } from "../../../lib/security/auth.ts";
import {
  checkCompletion,
  CompleteBody,
  writeProviderConfig,
} from "../../../lib/settings/onboarding.ts";
import { updateSettings } from "../../../lib/settings/settings.ts";
import { resolveProviders } from "../../../lib/providers/provider_config.ts";

export const handler: Handlers = {
  async POST(req, { app, url }) {
    const bytes = await readBodyBytes(req, MAX_JSON_BODY_BYTES);
    const text = new TextDecoder().decode(bytes);
    const raw = text.trim() === ""
      ? {}
      : await readJsonObject(new Request(req.url, { method: "POST", body: text }));
    if (raw.provider === undefined) {
      await updateSettings(app, { onboarding_completed: true });
      return json({ ok: true, ...(await compatOnboardingStatus(app)) });
    }
    const body = validate(CompleteBody, raw);
    await checkCompletion(app.config, body);
    if (body.api_key) app.log.addSecret(body.api_key);
    await writeProviderConfig(app.config, body);
    const { passwordChanged } = await updateSettings(app, {
      onboarding_completed: true,
      // The model just chosen is the default: drop an older override from the settings.
      default_model: null,
      ...(body.workspace ? { default_workspace: body.workspace } : {}),
      ...(body.password ? { password: body.password } : {}),
    });
    await app.reloadConfig();
    const resolved = resolveProviders(app.config, app.log);
    const headers: Record<string, string> = {};
    if (passwordChanged) {
      headers["set-cookie"] = sessionCookie(
        await createLoginSession(app.security),
        url.protocol === "https:",
      );
    }
    return json(
      {
        ok: true,
        config_path: app.config.configPath,
        provider: resolved.activeProviderId,
        default_model: resolved.defaultModel,
        has_provider: resolved.active !== null,
        ...(resolved.issue ? { issue: resolved.issue } : {}),
        workspace: app.config.defaultWorkspace,
      },
      200,
      headers,
    );
  },
};
