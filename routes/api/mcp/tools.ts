// GET /api/mcp/tools → {tools:[{server, name, tool_name, description, input_schema}]}: the
// tools of the servers connected right now. Passive: never starts or probes a server.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { mcpToolName } from "../../../lib/tools/mcp_tools.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    const tools = app.mcp.tools().map((t) => ({
      server: t.server,
      name: t.name,
      tool_name: mcpToolName(t.server, t.name),
      description: t.description,
      input_schema: t.inputSchema,
    }));
    return json({ tools });
  },
};
