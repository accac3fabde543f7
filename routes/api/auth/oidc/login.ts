// GET /api/auth/oidc/login?next=/path → 302 to the OpenID Connect provider's authorization
// endpoint (code flow, PKCE S256, fresh state and nonce), setting the `hermes_oidc_state`
// cookie that binds the sign-in to this browser. 400 when OIDC is not configured or auth is
// off; an unreachable provider gets the sign-in error page (502).
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { OidcRefusedError, oidcStartResponse } from "../../../../lib/security/oidc.ts";
import { signInErrorPage } from "../../../../lib/security/sign_in_page.ts";

export const handler: Handlers = {
  async GET(req, { app, url }) {
    try {
      return await oidcStartResponse(app.security, req, url);
    } catch (err) {
      if (!(err instanceof OidcRefusedError)) throw err;
      app.log.warn("OIDC sign-in could not start", { error: err.message });
      return signInErrorPage(err.message, 502);
    }
  },
};
