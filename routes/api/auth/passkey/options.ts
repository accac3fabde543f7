// POST /api/auth/passkey/options → options for navigator.credentials.get(): the first step of
// signing in with a passkey (public, like /api/auth/login). 400 while auth is off or when no
// passkey is registered. The challenge is single-use and expires in 2 minutes.
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { rpContext, startLogin } from "../../../../lib/security/passkeys.ts";
import { json } from "../../../../lib/server/http.ts";

export const handler: Handlers = {
  async POST(req, { app, url }) {
    return json(await startLogin(app.security, rpContext(req, url, app.config)));
  },
};
