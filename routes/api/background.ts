// POST /api/background {session_id, prompt} → {task_id, stream_id, session_id}: run `prompt` as
// a task in a hidden child session (lib/engine/background_tasks.ts); the parent hears
// `bg_task_complete` on GET /api/background/events when it ends. Empty prompt → 400;
// unknown session → 404.
import { z } from "zod";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import { MAX_BACKGROUND_PROMPT, startBackground } from "../../lib/engine/background_tasks.ts";

const Body = z.object({
  session_id: z.string().min(1),
  prompt: z.string().max(MAX_BACKGROUND_PROMPT),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    return json(await startBackground(app, body.session_id, body.prompt));
  },
};
