// GET /api/auth/oidc/callback?code&state → the provider's redirect back. Checks the state
// (single-use, expiring, and the one this browser's `hermes_oidc_state` cookie names), the
// PKCE verifier, the ID token's nonce and the allowlist; on success sets the same
// `hermes_session` cookie a password login does and redirects to `next`. A refused or broken
// sign-in gets a plain page saying why (403), never a session.
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { createLoginSession, sessionCookie } from "../../../../lib/security/auth.ts";
import {
  clearedOidcStateCookie,
  finishOidcLogin,
  OidcRefusedError,
} from "../../../../lib/security/oidc.ts";
import { signInErrorPage } from "../../../../lib/security/sign_in_page.ts";

export const handler: Handlers = {
  async GET(req, { app, url, remoteAddr }) {
    const sec = app.security;
    const secure = url.protocol === "https:";
    let who;
    try {
      who = await finishOidcLogin(sec, req, url);
    } catch (err) {
      if (!(err instanceof OidcRefusedError)) throw err;
      app.log.warn("OIDC sign-in refused", { client: remoteAddr, reason: err.message });
      const page = signInErrorPage(err.message, 403);
      page.headers.append("set-cookie", clearedOidcStateCookie(secure));
      return page;
    }
    app.log.info("OIDC sign-in", { subject: who.subject, email: who.email ?? "" });
    const headers = new Headers({ location: who.next, "cache-control": "no-store" });
    headers.append("set-cookie", sessionCookie(await createLoginSession(sec), secure));
    headers.append("set-cookie", clearedOidcStateCookie(secure));
    return new Response(null, { status: 302, headers });
  },
};
