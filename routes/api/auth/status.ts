// GET /api/auth/status → {auth_enabled, logged_in} plus, for a logged-in browser session, the
// `csrf_token` its writes must echo in X-Hermes-CSRF-Token.
import type { Handlers } from "../../../lib/server/file_router.ts";
import type { AuthState } from "../../../lib/security/auth.ts";
import { json } from "../../../lib/server/http.ts";

export const handler: Handlers = {
  GET(_req, { state }) {
    const auth = state.auth as AuthState;
    return json({
      auth_enabled: auth.enabled,
      logged_in: auth.loggedIn,
      ...(auth.csrfToken ? { csrf_token: auth.csrfToken } : {}),
    });
  },
};
