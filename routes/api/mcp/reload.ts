// POST /api/mcp/reload {name?} → {ok:true, servers:[status rows of the reloaded servers]}.
// Restarts only the named server (or every enabled one) and clears its connect backoff.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { NotFoundError } from "../../../lib/errors.ts";
import { json, parseJsonText, readBodyBytes, validate } from "../../../lib/server/http.ts";

const Body = z.object({ name: z.string().min(1).optional() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const text = new TextDecoder().decode(await readBodyBytes(req, 64 * 1024)).trim();
    const raw: unknown = text ? parseJsonText(text) : {};
    const { name } = validate(Body, raw);
    if (name !== undefined && !app.mcp.configs().some((c) => c.name === name)) {
      throw new NotFoundError(`MCP server "${name}" is not configured`);
    }
    return json({ ok: true, servers: await app.mcp.reload(name) });
  },
};
