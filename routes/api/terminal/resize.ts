// POST /api/terminal/resize {session_id, terminal_id?, rows, cols} → {ok, terminal}. Sizes are
// clamped (rows 4–200, cols 10–500); the shell gets SIGWINCH. Unknown terminal → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { targetTerminal } from "../../../lib/terminal/terminal_target.ts";

const Body = z.object({
  session_id: z.string().min(1).max(128),
  terminal_id: z.string().min(1).max(64).optional(),
  rows: z.number().int(),
  cols: z.number().int(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, terminal_id, rows, cols } = await readBody(req, Body);
    const id = targetTerminal(app, session_id, terminal_id);
    return json({ ok: true, terminal: app.terminals.resize(session_id, id, rows, cols) });
  },
};
