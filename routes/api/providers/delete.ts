// POST /api/providers/delete {provider} → {ok, provider, action:"removed"}: remove a provider
// from config.yaml. Not configured → 404; the active provider → 409 (pick another first).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { deleteProvider } from "../../../lib/providers/provider_admin.ts";

const Body = z.strictObject({ provider: z.string().trim().min(1).max(200) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { provider } = await readBody(req, Body);
    const id = await deleteProvider(app, provider);
    return json({ ok: true, provider: id, action: "removed" });
  },
};
