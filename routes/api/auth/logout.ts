// POST /api/auth/logout → {ok:true}: revokes the login session server-side (the signed cookie
// stops working even if it was copied) and clears the cookie.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { clearedSessionCookie, endLoginSession } from "../../../lib/security/auth.ts";
import { json } from "../../../lib/server/http.ts";

export const handler: Handlers = {
  async POST(req, { app, url }) {
    await endLoginSession(app.security, req);
    return json({ ok: true }, 200, {
      "set-cookie": clearedSessionCookie(url.protocol === "https:"),
    });
  },
};
