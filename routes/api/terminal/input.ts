// POST /api/terminal/input {session_id, terminal_id?, data} → {ok}. Keystrokes (or a paste, at
// most 64 KB) written to the terminal's PTY. Unknown terminal → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { targetTerminal } from "../../../lib/terminal/terminal_target.ts";

const Body = z.object({
  session_id: z.string().min(1).max(128),
  terminal_id: z.string().min(1).max(64).optional(),
  data: z.string(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, terminal_id, data } = await readBody(req, Body);
    await app.terminals.input(session_id, targetTerminal(app, session_id, terminal_id), data);
    return json({ ok: true });
  },
};
