// POST /api/auth/passkey/delete {id} → {ok:true}: forgets one passkey (logged in only).
// Unknown id → 404. Login sessions it opened stay until they expire or the user logs out.
import { z } from "zod";
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { removePasskey } from "../../../../lib/security/passkeys.ts";
import { requireLoggedIn } from "../../../../lib/security/sign_in_routes.ts";
import { json, readBody } from "../../../../lib/server/http.ts";

const DeleteBody = z.object({ id: z.string().min(1).max(1024) });

export const handler: Handlers = {
  async POST(req, { app, state }) {
    requireLoggedIn(state);
    const { id } = await readBody(req, DeleteBody, 8 * 1024);
    await removePasskey(app.security, id);
    app.log.info("Passkey removed", { id: id.slice(0, 16) });
    return json({ ok: true });
  },
};
