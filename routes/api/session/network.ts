// POST /api/session/network {session_id, enabled} → {ok, allow_network}. Lets the session's
// sandboxed shell reach the network (off by default; `terminal.allow_network` in config.yaml
// turns it on for every session). Unknown session → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { setAllowNetwork } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1), enabled: z.boolean() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, enabled } = await readBody(req, Body);
    const session = await setAllowNetwork(app.db, session_id, enabled);
    app.log.info("shell network switched", { session_id, enabled: session.allow_network });
    return json({ ok: true, allow_network: session.allow_network });
  },
};
