// POST /api/share/revoke {token} → {ok, share}: the link stops working at once. The original's
// form {session_id} revokes every link of that session → {ok, revoked: n}.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { revokeSessionShares, revokeShare } from "../../../lib/sharing/shares.ts";

const Body = z.union([
  z.object({ token: z.string().min(1).max(200) }),
  z.object({ session_id: z.string().min(1) }),
]);

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    if ("token" in body) {
      return json({ ok: true, share: await revokeShare(app.db, app.clock, body.token) });
    }
    return json({
      ok: true,
      revoked: await revokeSessionShares(app.db, app.clock, body.session_id),
    });
  },
};
