// POST /api/session/import {messages:[…], title?, workspace?, …} (or a JSONL trace with
// Content-Type application/x-ndjson) → {ok:true, session} (with its messages). A JSON export imports back losslessly under a new id; no `messages` array, or a
// workspace that does not exist or is not trusted here → 400.
import type { Handlers } from "../../../lib/server/file_router.ts";
import {
  json,
  MAX_JSON_BODY_BYTES,
  parseJsonText,
  readBody,
  readBodyBytes,
  validate,
} from "../../../lib/server/http.ts";
import { traceToImport } from "../../../lib/sessions/session_trace.ts";
import { findProject } from "../../../lib/sessions/projects.ts";
import { ImportBody, importSession } from "../../../lib/sessions/session_export.ts";
import { findSession, fullSession } from "../../../lib/sessions/sessions.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";

/**
 * The named workspace when it exists and is trusted here (else a 400 naming it, as the
 * original does: a silent switch to another directory would run the agent somewhere the user
 * did not choose); no workspace → the default one.
 */
async function importWorkspace(
  app: Parameters<typeof resolveTrustedWorkspace>[0],
  ws?: string | null,
) {
  return await resolveTrustedWorkspace(app, ws || app.config.defaultWorkspace);
}

export const handler: Handlers = {
  async POST(req, { app }) {
    // A JSONL trace (GET /api/session/export?format=jsonl) imports too, by its content type.
    const type = req.headers.get("content-type") ?? "";
    const body = /ndjson|jsonl/i.test(type)
      ? validate(
        ImportBody,
        traceToImport(
          new TextDecoder().decode(await readBodyBytes(req, MAX_JSON_BODY_BYTES)),
          (line) => parseJsonText(line),
        ),
      )
      : await readBody(req, ImportBody);
    const session = await importSession({
      db: app.db,
      clock: app.clock,
      workspace: await importWorkspace(app, body.workspace),
      projectExists: async (id) => (await findProject(app.db, id)) !== null,
      sessionExists: async (id) => (await findSession(app.db, id)) !== null,
    }, body);
    return json({ ok: true, session: await fullSession(app.db, session.session_id) });
  },
};
