// POST /api/file/reveal {session_id, path} → {ok, path}: shows the file in the desktop's file manager
// on the server's own desktop. As in the original: missing fields → 400, a missing file → 404
// naming its resolved path, an unknown session → 404 "Session … not found", a path hostile on its
// face (`..`, absolute, NUL…) → 400 before any lookup. Refused (403) when
// the console is not bound to loopback. The path guard, the 404 and the launch are
// lib/workspace/open_on_host.ts (fixed argument list, minimal env).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath } from "../../../lib/workspace/workspace_paths.ts";
import { openInWorkspaceOnHost } from "../../../lib/workspace/open_on_host.ts";

const Body = z.object({ session_id: z.string().min(1), path: z.string().min(1).max(4096) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const session = await getSession(app.db, body.session_id);
    refuseHostilePath(body.path);
    const path = await openInWorkspaceOnHost(app.config, session.workspace, body.path, "reveal");
    return json({ ok: true, path });
  },
};
