// GET /api/terminal/output?session_id=&terminal_id= → SSE: `output` {text} (the scrollback
// first, then live), `exit` {code}. The HTTP fallback of the WebSocket; same-origin only
// (GUARDED_GET_PATHS). While it is open the terminal counts as watched.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { requireParam } from "../../../lib/server/http.ts";
import { targetTerminal } from "../../../lib/terminal/terminal_target.ts";
import { terminalOutputStream } from "../../../lib/terminal/terminal_socket.ts";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    const id = targetTerminal(app, sessionId, url.searchParams.get("terminal_id") ?? undefined);
    return terminalOutputStream(app.terminals, sessionId, id);
  },
};
