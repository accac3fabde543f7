// GET /api/prompts → {prompts: [{name, content, variables, created_at, updated_at}]}.
// POST /api/prompts {name, content} → {ok, prompt}: save (a name saved again is replaced).
import { z } from "zod";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import { listPrompts, savePrompt } from "../../lib/agent/saved_prompts.ts";

const Body = z.object({ name: z.string().max(64), content: z.string().max(100_000) });

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ prompts: await listPrompts(app.db) });
  },
  async POST(req, { app }) {
    const { name, content } = await readBody(req, Body);
    return json({ ok: true, prompt: await savePrompt(app.db, name, content, app.clock()) });
  },
};
