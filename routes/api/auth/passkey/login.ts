// POST /api/auth/passkey/login {response} → {ok:true} + the same `hermes_session` cookie a
// password login sets. A bad signature, an unknown passkey, a replayed or expired challenge or
// a counter that did not move forward → 401; failures count toward the login rate limit
// (more than 5 per 60 s per client → 429). The body is capped at 8 KB (pre-auth).
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { createLoginSession, sessionCookie } from "../../../../lib/security/auth.ts";
import { finishLogin, LoginBody, rpContext } from "../../../../lib/security/passkeys.ts";
import { countSignInAttempt } from "../../../../lib/security/sign_in_routes.ts";
import { json, MAX_UNAUTHENTICATED_BODY_BYTES, readBody } from "../../../../lib/server/http.ts";

export const handler: Handlers = {
  async POST(req, { app, url, remoteAddr }) {
    const sec = app.security;
    const rp = rpContext(req, url, app.config);
    const body = await readBody(req, LoginBody, MAX_UNAUTHENTICATED_BODY_BYTES);
    await countSignInAttempt(sec, remoteAddr);
    try {
      await finishLogin(sec, rp, body);
    } catch (err) {
      app.log.warn("Failed passkey sign-in", { client: remoteAddr });
      throw err;
    }
    await sec.limits.login.reset(remoteAddr);
    const cookie = sessionCookie(await createLoginSession(sec), url.protocol === "https:");
    return json({ ok: true }, 200, { "set-cookie": cookie });
  },
};
