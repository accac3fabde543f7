// POST /api/session/import {messages:[…], title?, …} → {session}. A JSON export imports back
// losslessly under a new id; no `messages` array → 400.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { findProject } from "../../../lib/sessions/projects.ts";
import { ImportBody, importSession } from "../../../lib/sessions/session_export.ts";
import { findSession, fullSession } from "../../../lib/sessions/sessions.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";

/** The exported workspace when it is still trusted here, else the default workspace. */
async function importWorkspace(
  app: Parameters<typeof resolveTrustedWorkspace>[0],
  ws?: string | null,
) {
  if (ws) {
    try {
      return await resolveTrustedWorkspace(app, ws);
    } catch { /* another machine's path: fall back to the default */ }
  }
  return await resolveTrustedWorkspace(app, app.config.defaultWorkspace);
}

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, ImportBody);
    const session = importSession({
      db: app.db,
      clock: app.clock,
      workspace: await importWorkspace(app, body.workspace),
      projectExists: (id) => findProject(app.db, id) !== null,
      sessionExists: (id) => findSession(app.db, id) !== null,
    }, body);
    return json({ session: fullSession(app.db, session.session_id) });
  },
};
