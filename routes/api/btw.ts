// POST /api/btw {session_id, question} → {stream_id, session_id, parent_session_id, model}: the
// model answers a side question with the session's context in a hidden child session
// (lib/engine/side_question.ts); stream the answer from /api/chat/stream?stream_id=. The parent's
// transcript is never changed. Empty question → 400; unknown session → 404.
import { z } from "zod";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import { askSideQuestion, MAX_BTW_QUESTION } from "../../lib/engine/side_question.ts";

const Body = z.object({
  session_id: z.string().min(1),
  question: z.string().max(MAX_BTW_QUESTION),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    return json(await askSideQuestion(app, body.session_id, body.question));
  },
};
