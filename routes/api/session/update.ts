// POST /api/session/update {session_id, workspace?, model?, model_provider?} → {session}.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession, updateSession } from "../../../lib/sessions/sessions.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";

const Body = z.object({
  session_id: z.string().min(1),
  workspace: z.string().min(1).optional(),
  model: z.string().nullable().optional(),
  model_provider: z.string().nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    await getSession(app.db, body.session_id);
    const workspace = body.workspace === undefined
      ? undefined
      : await resolveTrustedWorkspace(app, body.workspace);
    const session = await updateSession(app.db, app.clock, body.session_id, {
      workspace,
      model: body.model,
      model_provider: body.model_provider,
    });
    return json({ session });
  },
};
