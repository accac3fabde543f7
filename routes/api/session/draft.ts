// The original's per-session composer draft (lib/sessions/composer_drafts.ts).
// GET /api/session/draft?session_id= → {draft: {text, files}} ({text: "", files: []} when none).
// POST /api/session/draft {session_id, text?, files?} → {ok, draft} (+ `unchanged: true` when it
// was already stored): text is clamped to 50,000 characters and files to 50 entries, a text that
// is not a string counts as "", files that are not a list as [], absent files keep the stored
// ones. Saving a draft never touches the session's updated_at. Unknown session → 404; a
// missing session_id → 400.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody, requireParam } from "../../../lib/server/http.ts";
import { readDraft, saveDraft } from "../../../lib/sessions/composer_drafts.ts";
import { ValidationError } from "../../../lib/errors.ts";

// The text may be longer than the stored clamp (the original clamps rather than refuses), but a
// request body is still bounded below.
const Body = z.object({
  session_id: z.string().min(1).max(128),
  text: z.unknown().optional(),
  files: z.unknown().optional(),
});
const MAX_BODY_BYTES = 512 * 1024;

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    if (sessionId.length > 128) {
      throw new ValidationError("Invalid session_id: at most 128 characters", "session_id");
    }
    return json({ draft: await readDraft(app.db, sessionId) });
  },
  async POST(req, { app }) {
    const body = await readBody(req, Body, MAX_BODY_BYTES);
    const { draft, unchanged } = await saveDraft(app.db, body.session_id, body);
    return json({ ok: true, draft, ...(unchanged ? { unchanged: true } : {}) });
  },
};
