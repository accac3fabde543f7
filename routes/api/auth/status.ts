// GET /api/auth/status → {auth_enabled, logged_in, password_enabled, passkeys_enabled,
// oidc_enabled, oidc_provider?} plus, for a logged-in browser session, the `csrf_token` its
// writes must echo in X-Hermes-CSRF-Token. `passkeys_enabled`: auth is on and at least one
// passkey is registered; `oidc_enabled`: auth is on and an OpenID Connect issuer is configured.
import type { Handlers } from "../../../lib/server/file_router.ts";
import type { AuthState } from "../../../lib/security/auth.ts";
import { passkeysEnabled } from "../../../lib/security/passkeys.ts";
import { oidcEnabled, oidcProviderName } from "../../../lib/security/oidc.ts";
import { json } from "../../../lib/server/http.ts";

export const handler: Handlers = {
  async GET(_req, { state, app }) {
    const auth = state.auth as AuthState;
    const oidc = await oidcEnabled(app.security);
    const passkeys = await passkeysEnabled(app.security);
    return json({
      auth_enabled: auth.enabled,
      logged_in: auth.loggedIn,
      password_enabled: auth.enabled,
      passkeys_enabled: passkeys,
      oidc_enabled: oidc,
      ...(oidc ? { oidc_provider: oidcProviderName(app.security.config) } : {}),
      ...(auth.csrfToken ? { csrf_token: auth.csrfToken } : {}),
    });
  },
};
