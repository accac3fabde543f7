// POST /api/auth/passkey/register/options → options for navigator.credentials.create() (logged
// in, auth on; else 401/400). The challenge is single-use, expires in 2 minutes and is bound to
// this request's host name (RP ID) and origin.
import type { Handlers } from "../../../../../lib/server/file_router.ts";
import { rpContext, startRegistration } from "../../../../../lib/security/passkeys.ts";
import { requireLoggedIn } from "../../../../../lib/security/sign_in_routes.ts";
import { readPreferences } from "../../../../../lib/settings/settings.ts";
import { json } from "../../../../../lib/server/http.ts";

export const handler: Handlers = {
  async POST(req, { app, url, state }) {
    requireLoggedIn(state);
    const rp = rpContext(req, url, app.config);
    const botName = String((await readPreferences(app.db)).bot_name ?? "Hermes");
    return json(await startRegistration(app.security, rp, botName));
  },
};
