// GET /api/settings → the original's settings keys with defaults (lib/settings/preferences.ts),
// the console's own, secrets masked, plus `auth_enabled`, `password_env_var` and
// `persisted_speech_keys`. POST /api/settings {…partial} merges like the original: unknown keys
// and invalid values are ignored and named in `ignored` (malformed JSON is still a 400);
// default_model goes through POST /api/default-model instead. The original's keys with no
// feature here (INERT_PREFERENCES: self-update, dashboard plugins, the CLI bridge, …) are kept as
// sent, so its clients round-trip them, and are named in `ignored` too: nothing acts on them. Setting or changing the password
// revokes every login and hands this client a fresh login cookie, so the person who changed it
// stays signed in; clearing it removes the cookie.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readJsonObject } from "../../lib/server/http.ts";
import {
  clearedSessionCookie,
  createLoginSession,
  sessionCookie,
} from "../../lib/security/auth.ts";
import {
  getSettings,
  notifyProviderConfigChange,
  parseSettingsBody,
  updateSettings,
} from "../../lib/settings/settings.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json(await getSettings(app.db, app.config));
  },
  async POST(req, { app, url }) {
    const { patch, preferences, ignored } = parseSettingsBody(await readJsonObject(req));
    const result = await updateSettings(app, patch, preferences);
    if (result.providerChanged) await notifyProviderConfigChange(app);
    const headers: Record<string, string> = {};
    if (result.passwordChanged) {
      const secure = url.protocol === "https:";
      headers["set-cookie"] = result.settings.auth_enabled
        ? sessionCookie(await createLoginSession(app.security), secure)
        : clearedSessionCookie(secure);
    }
    return json({ ...result.settings, ignored }, 200, headers);
  },
};
