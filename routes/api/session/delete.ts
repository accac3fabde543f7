// POST /api/session/delete {session_id} → {ok:true}. Idempotent: an unknown id is fine.
// Removes messages, journal, tool calls, approvals, usage (FK cascade) and attachments.
// A session_id that is a path or carries traversal (`/`, backslash, `..`, NUL) is a 400: an id never
// names a file, and refusing it keeps a hostile id away from the attachments directory.
import { sharedFilesDir } from "../../../lib/settings/config.ts";
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { deleteSession } from "../../../lib/sessions/sessions.ts";

const Body = z.object({
  session_id: z.string().min(1).max(128).refine(
    (id) => !/[\/\\\0]/.test(id) && !id.includes(".."),
    "must be a session id, not a path",
  ),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    // A live run would otherwise keep writing to rows that are about to disappear.
    await app.runs.cancelSession(session_id);
    await app.terminals.closeSession(session_id); // its shells go with it
    await deleteSession(app.db, sharedFilesDir(app.config), session_id);
    return json({ ok: true });
  },
};
