// PUT /api/mcp/servers/{name} <server config> → {ok, created, server}: create or replace.
// PATCH /api/mcp/servers/{name} {enabled?, approval?} → {ok, server}.
// DELETE /api/mcp/servers/{name} → {ok:true}. Unknown server → 404 (PATCH, DELETE).
// Each edit goes through the config writer; the runtime reloads only after the write succeeded.
import { z } from "zod";
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { json, readBody } from "../../../../lib/server/http.ts";
import {
  deleteServer,
  patchServer,
  putServer,
  requireServerName,
  serverBodySchema,
} from "../../../../lib/mcp/config.ts";
import type { AppContext } from "../../../../lib/server/app_context.ts";

const PatchBody = z.strictObject({
  enabled: z.boolean().optional(),
  approval: z.enum(["ask", "allow"]).optional(),
}).refine((v) => v.enabled !== undefined || v.approval !== undefined, {
  message: "give enabled and/or approval",
});

function row(app: AppContext, name: string) {
  return app.mcp.status().find((s) => s.name === name) ?? null;
}

export const handler: Handlers = {
  async PUT(req, { app, params }) {
    const name = requireServerName(params.name);
    const body = await readBody(req, serverBodySchema);
    const created = await putServer(app, name, body);
    await app.mcp.reconcile();
    return json({ ok: true, created, server: row(app, name) }, created ? 201 : 200);
  },
  async PATCH(req, { app, params }) {
    const name = params.name;
    const body = await readBody(req, PatchBody);
    await patchServer(app, name, body);
    await app.mcp.reconcile();
    return json({ ok: true, server: row(app, name) });
  },
  async DELETE(_req, { app, params }) {
    const name = params.name;
    await deleteServer(app, name);
    await app.mcp.reconcile();
    return json({ ok: true });
  },
};
