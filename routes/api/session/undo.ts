// POST /api/session/undo {session_id} → {ok, removed_count, removed_preview, session, text}:
// drops the last turn (the last user message and everything after it). `removed_preview` is
// the start of that message (the original's field); `text` is all of it, for re-editing.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { fullSession, undoLastTurn } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1) });
const PREVIEW_CHARS = 100;

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    const { removed, text } = await undoLastTurn(app.db, app.clock, session_id);
    return json({
      ok: true,
      removed_count: removed,
      removed_preview: text === null ? "" : text.slice(0, PREVIEW_CHARS),
      session: await fullSession(app.db, session_id),
      text,
    });
  },
};
