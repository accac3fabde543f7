// POST /api/auth/passkey/register {response, name?} → {ok:true, passkey:{id,name,created_at,
// last_used_at}}: verifies the browser's new credential against its challenge and stores it.
// Logged in and auth on only; a reused, expired or foreign challenge is a 400.
import type { Handlers } from "../../../../lib/server/file_router.ts";
import {
  finishRegistration,
  RegistrationBody,
  rpContext,
} from "../../../../lib/security/passkeys.ts";
import { requireLoggedIn } from "../../../../lib/security/sign_in_routes.ts";
import { json, readBody } from "../../../../lib/server/http.ts";

export const handler: Handlers = {
  async POST(req, { app, url, state }) {
    requireLoggedIn(state);
    const rp = rpContext(req, url, app.config);
    const body = await readBody(req, RegistrationBody, 64 * 1024);
    const passkey = await finishRegistration(app.security, rp, body);
    app.log.info("Passkey registered", { name: passkey.name });
    return json({ ok: true, passkey });
  },
};
