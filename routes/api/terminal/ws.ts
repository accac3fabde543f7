// GET /api/terminal/ws?session_id=&terminal_id=&token= → WebSocket to a running terminal.
// Server → client: {type:"attached", terminal, scrollback: bytes} (JSON), the scrollback and
// live output (binary),
// {type:"exit", code}. Client → server: keystrokes (binary, or {type:"input", data}) and
// {type:"resize", rows, cols}. Same-origin only (GUARDED_GET_PATHS: Origin must match Host), a
// login when auth is on (middleware), and the page's proof as `token` (a WebSocket cannot send
// the X-Hermes-CSRF-Token header).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { requireParam } from "../../../lib/server/http.ts";
import type { AuthState } from "../../../lib/security/auth.ts";
import { checkSocketProof, serveTerminalSocket } from "../../../lib/terminal/terminal_socket.ts";
import { targetTerminal } from "../../../lib/terminal/terminal_target.ts";

export const handler: Handlers = {
  async GET(req, { app, url, state }) {
    await checkSocketProof(
      app.security,
      req,
      state.auth as AuthState,
      url.searchParams.get("token"),
    );
    const sessionId = requireParam(url, "session_id");
    const id = targetTerminal(app, sessionId, url.searchParams.get("terminal_id") ?? undefined);
    return serveTerminalSocket(app.terminals, req, sessionId, id, app.live.onGoingAway);
  },
};
