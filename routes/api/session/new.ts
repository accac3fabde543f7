// POST /api/session/new {model?, model_provider?, workspace?, project_id?} → {session}.
// The workspace must resolve to a trusted directory; a project's bindings fill the gaps, then
// the workspace used last (as in the original), then the default one.
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
import { createSession, getSession } from "../../../lib/sessions/sessions.ts";
import { newSessionProfile, tagSessionProfile } from "../../../lib/agent/profiles.ts";
import { lastWorkspace, resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";
import { ValidationError } from "../../../lib/errors.ts";

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

/** The last used workspace while it is still there and trusted, else the default one. */
async function inheritedWorkspace(app: Parameters<typeof lastWorkspace>[0]): Promise<string> {
  try {
    return await resolveTrustedWorkspace(app, await lastWorkspace(app));
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return await resolveTrustedWorkspace(app, app.config.defaultWorkspace);
  }
}

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readOptionalBody(req);
    const project = body.project_id ? await getProject(app.db, body.project_id) : null;
    const bound = project ? projectSessionDefaults(project) : null;
    // New chats take the active profile's defaults where the request and project say nothing.
    const profile = await newSessionProfile(app.db, app.config);
    const asked = body.workspace || bound?.workspace || profile.workspace;
    const workspace = asked
      ? await resolveTrustedWorkspace(app, asked)
      : await inheritedWorkspace(app);
    const model = body.model || bound?.model || profile.model || app.config.defaultModel || null;
    const model_provider = body.model_provider ||
      (body.model ? null : bound?.model_provider || profile.provider) || null;
    const created = await createSession(app.db, app.clock, {
      workspace,
      model,
      model_provider,
      project_id: project?.project_id ?? null,
    });
    await tagSessionProfile(app.db, created.session_id, profile);
    const session = await getSession(app.db, created.session_id);
    return json({ session: { ...session, messages: [], tool_calls: [] } });
  },
};
