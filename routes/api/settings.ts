// GET /api/settings → the settings without secrets (keys masked) plus `auth_enabled`;
// POST /api/settings {…partial} merges and returns the same shape. Setting or changing the
// password revokes every login and hands this client a fresh login cookie, so the person who
// changed it stays signed in; clearing it removes the cookie.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import {
  clearedSessionCookie,
  createLoginSession,
  sessionCookie,
} from "../../lib/security/auth.ts";
import {
  getSettings,
  notifyProviderConfigChange,
  SettingsPatch,
  updateSettings,
} from "../../lib/settings/settings.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    return json(getSettings(app.db, app.config));
  },
  async POST(req, { app, url }) {
    const patch = await readBody(req, SettingsPatch);
    const result = await updateSettings(app, patch);
    if (result.providerChanged) await notifyProviderConfigChange(app);
    const headers: Record<string, string> = {};
    if (result.passwordChanged) {
      const secure = url.protocol === "https:";
      headers["set-cookie"] = result.settings.auth_enabled
        ? sessionCookie(await createLoginSession(app.security), secure)
        : clearedSessionCookie(secure);
    }
    return json(result.settings, 200, headers);
  },
};
