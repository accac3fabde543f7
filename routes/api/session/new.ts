// POST /api/session/new {model?, model_provider?, workspace?, project_id?} → {session}.
// The workspace must resolve to a trusted directory; a project's bindings fill the gaps.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import {
  json,
  MAX_JSON_BODY_BYTES,
  readBody,
  readBodyBytes,
  validate,
} from "../../../lib/server/http.ts";
import { getProject, projectSessionDefaults } from "../../../lib/sessions/projects.ts";
import { createSession } from "../../../lib/sessions/sessions.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";

const Body = z.object({
  model: z.string().nullable().optional(),
  model_provider: z.string().nullable().optional(),
  workspace: z.string().nullable().optional(),
  project_id: z.string().nullable().optional(),
});

/** Every field is optional, so an empty body means "all defaults". */
async function readOptionalBody(req: Request): Promise<z.infer<typeof Body>> {
  const text = new TextDecoder().decode(await readBodyBytes(req, MAX_JSON_BODY_BYTES));
  if (text.trim() === "") return validate(Body, {});
  return await readBody(new Request(req.url, { method: "POST", body: text }), Body);
}

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readOptionalBody(req);
    const project = body.project_id ? getProject(app.db, body.project_id) : null;
    const bound = project ? projectSessionDefaults(project) : null;
    const workspace = await resolveTrustedWorkspace(
      app,
      body.workspace || bound?.workspace || app.config.defaultWorkspace,
    );
    const model = body.model || bound?.model || app.config.defaultModel || null;
    const model_provider = body.model_provider ||
      (body.model ? null : bound?.model_provider) || null;
    const session = createSession(app.db, app.clock, {
      workspace,
      model,
      model_provider,
      project_id: project?.project_id ?? null,
    });
    return json({ session: { ...session, messages: [], tool_calls: [] } });
  },
};
