// GET /api/auth/oidc/start?next=/path → 302 to the OpenID Connect provider: the original's name
// for our /api/auth/oidc/login, the same sign-in start (lib/security/oidc.ts startOidcLogin:
// PKCE, fresh state and nonce, the `hermes_oidc_state` cookie). As in the original, sign-in
// that is not configured (or auth off) is a 404 {error}, and a provider that cannot be reached
// a 502 {error}.
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { OidcRefusedError, oidcStartResponse } from "../../../../lib/security/oidc.ts";
import { ValidationError } from "../../../../lib/errors.ts";
import { json } from "../../../../lib/server/http.ts";

export const handler: Handlers = {
  async GET(req, { app, url }) {
    try {
      return await oidcStartResponse(app.security, req, url);
    } catch (err) {
      if (err instanceof ValidationError) return json({ error: err.message }, 404);
      if (!(err instanceof OidcRefusedError)) throw err;
      app.log.warn("OIDC sign-in could not start", { error: err.message });
      return json({ error: err.message }, 502);
    }
  },
};
