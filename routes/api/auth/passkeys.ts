// GET /api/auth/passkeys → {passkeys:[{id,name,created_at,last_used_at}], enabled}: the
// registered passkeys for the Control Center's Sign-in tab (logged in only; /api/auth/* is
// otherwise public). `enabled` is false while auth is off (no password: passkeys refused).
// POST /api/auth/passkeys → {credentials: [...]} (plus `disabled: true` while auth is off): the
// original's name and shape for the same list.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { authEnabled } from "../../../lib/security/auth.ts";
import { listPasskeys } from "../../../lib/security/passkeys.ts";
import { requireLoggedIn } from "../../../lib/security/sign_in_routes.ts";
import { json } from "../../../lib/server/http.ts";

export const handler: Handlers = {
  async GET(_req, { app, state }) {
    requireLoggedIn(state);
    const passkeys = await listPasskeys(app.security);
    return json({ passkeys, enabled: await authEnabled(app.security) });
  },
  async POST(_req, { app, state }) {
    requireLoggedIn(state);
    const credentials = await listPasskeys(app.security);
    const enabled = await authEnabled(app.security);
    return json({ credentials, ...(enabled ? {} : { disabled: true }) });
  },
};
