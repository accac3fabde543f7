// POST /api/prompts/delete {name} → {ok}; 404 for a name that is not saved.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { deletePrompt } from "../../../lib/agent/saved_prompts.ts";

const Body = z.object({ name: z.string().min(1).max(64) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name } = await readBody(req, Body);
    await deletePrompt(app.db, name);
    return json({ ok: true });
  },
};
