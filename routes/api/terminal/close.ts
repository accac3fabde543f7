// POST /api/terminal/close {session_id, terminal_id?} → {ok}. Kills the shell and everything it
// started (the sandbox's pid namespace goes with it). Unknown terminal → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { targetTerminal } from "../../../lib/terminal/terminal_target.ts";

const Body = z.object({
  session_id: z.string().min(1).max(128),
  terminal_id: z.string().min(1).max(64).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, terminal_id } = await readBody(req, Body);
    await app.terminals.close(session_id, targetTerminal(app, session_id, terminal_id));
    return json({ ok: true });
  },
};
