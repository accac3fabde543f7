// POST /api/share/create {session_id, include_tools?, include_files?, expires_in_days?}
// → {ok, share: {token, url, created_at, expires_at, …}}: freeze the conversation now and make
// a read-only link to it (lib/sharing/shares.ts). Tool outputs and file contents stay out
// unless asked for.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { createShare, MAX_EXPIRY_DAYS } from "../../../lib/sharing/shares.ts";

const Body = z.object({
  session_id: z.string().min(1),
  include_tools: z.boolean().optional(),
  include_files: z.boolean().optional(),
  expires_in_days: z.number().positive().max(MAX_EXPIRY_DAYS).nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const share = await createShare(app.db, app.clock, {
      sessionId: body.session_id,
      includeTools: body.include_tools,
      includeFiles: body.include_files,
      expiresInDays: body.expires_in_days ?? null,
    });
    return json({ ok: true, share });
  },
};
