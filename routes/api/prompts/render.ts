// POST /api/prompts/render {name, values: {var: text}} → {ok, text}: the saved prompt with its
// {{variables}} filled in, for the composer to send; 400 names any variable left empty.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { fillPrompt, getPrompt } from "../../../lib/agent/saved_prompts.ts";

const Body = z.object({
  name: z.string().min(1).max(64),
  values: z.record(z.string().max(64), z.string().max(100_000)).default({}),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name, values } = await readBody(req, Body);
    const prompt = await getPrompt(app.db, name);
    return json({ ok: true, text: fillPrompt(prompt.content, values) });
  },
};
