// POST /api/terminal/start {session_id, rows?, cols?} → {ok, terminal: {terminal_id, session_id,
// rows, cols, created_at, viewers}}. Starts a shell on a PTY in the session's workspace inside
// the agent's sandbox (lib/terminal). 503 past the per-session or overall limit, or shutting down;
// 409 when this host cannot build the sandbox.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { terminalPlace } from "../../../lib/terminal/terminal_target.ts";

const Body = z.object({
  session_id: z.string().min(1).max(128),
  rows: z.number().int().optional(),
  cols: z.number().int().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, rows, cols } = await readBody(req, Body);
    const place = await terminalPlace(app, session_id);
    const terminal = await app.terminals.start({ ...place, rows, cols });
    app.log.info("terminal started", { session_id, terminal_id: terminal.terminal_id });
    return json({ ok: true, terminal });
  },
};
