// GET /api/auth/oidc/login?next=/path → 302 to the OpenID Connect provider's authorization
// endpoint (code flow, PKCE S256, fresh state and nonce). 400 when OIDC is not configured or
// auth is off; an unreachable provider gets the sign-in error page (502).
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { OidcRefusedError, startOidcLogin } from "../../../../lib/security/oidc.ts";
import { signInErrorPage } from "../../../../lib/security/sign_in_page.ts";

export const handler: Handlers = {
  async GET(req, { app, url }) {
    try {
      const target = await startOidcLogin(app.security, req, url, url.searchParams.get("next"));
      return new Response(null, {
        status: 302,
        headers: { location: target.href, "cache-control": "no-store" },
      });
    } catch (err) {
      if (!(err instanceof OidcRefusedError)) throw err;
      app.log.warn("OIDC sign-in could not start", { error: err.message });
      return signInErrorPage(err.message, 502);
    }
  },
};
