// GET /api/mcp/servers → {servers:[{name, transport, enabled, approval, status, tool_count,
// last_error, command?/args?/url?, env/headers masked, timeout, connect_timeout, retry_at}]}.
// Passive: never starts or probes a server.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    return json({ servers: app.mcp.status() });
  },
};
