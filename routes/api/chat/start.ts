// POST /api/chat/start {session_id, message, model?, model_provider?, workspace?, attachments?}
// → {stream_id, session_id, turn_id, title}. The user message is saved before the agent starts;
// the run goes on whether or not a browser listens. A second start while a run is active → 409.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";

const Attachment = z.union([z.string().min(1), z.looseObject({})]);

const Body = z.object({
  session_id: z.string().min(1),
  message: z.string(),
  model: z.string().nullable().optional(),
  model_provider: z.string().nullable().optional(),
  workspace: z.string().nullable().optional(),
  attachments: z.array(Attachment).max(20).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const result = await app.runs.start(app, {
      sessionId: body.session_id,
      message: body.message,
      ...(body.model != null ? { model: body.model } : {}),
      ...(body.model_provider != null ? { modelProvider: body.model_provider } : {}),
      ...(body.workspace ? { workspace: body.workspace } : {}),
      ...(body.attachments?.length ? { attachments: body.attachments } : {}),
    });
    return json(result);
  },
};
