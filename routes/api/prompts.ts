// GET /api/prompts → {prompts: [{name, content, variables, created_at, updated_at, id, label,
// text}]} (`id`/`label`/`text` are the original's names for the name and the content).
// POST /api/prompts {name, content} → {ok, prompt}: save (a name saved again is replaced).
// POST /api/prompts {text, label?} → {ok, prompt}: the original's shape; always a new prompt,
// named from the label (or the text's start), numbered when that name is taken.
// DELETE /api/prompts {id} (or {name}, or ?id=) → {ok, deleted}: the original's delete; a name
// that is not saved is not an error there (POST /api/prompts/delete answers 404 for it).
import { z } from "zod";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readJsonObject, validate } from "../../lib/server/http.ts";
import { deletePrompt, listPrompts, savePrompt } from "../../lib/agent/saved_prompts.ts";
import { promptJson, saveOriginalPrompt } from "../../lib/agent/original_prompts.ts";
import { NotFoundError, ValidationError } from "../../lib/errors.ts";

const Body = z.object({ name: z.string().max(64), content: z.string().max(100_000) });
const OriginalBody = z.object({
  text: z.string().max(100_000).refine((t) => t.trim() !== "", "text is required"),
  label: z.string().max(1000).nullable().optional(),
});
const DeleteBody = z.object({
  id: z.string().max(64).optional(),
  name: z.string().max(64).optional(),
});

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ prompts: (await listPrompts(app.db)).map(promptJson) });
  },
  async POST(req, { app }) {
    const raw = await readJsonObject(req);
    // The original's clients send {text, label?}; ours send {name, content}.
    const original = !("name" in raw) && !("content" in raw) && ("text" in raw || "label" in raw);
    if (original) {
      const body = validate(OriginalBody, raw);
      return json({ ok: true, prompt: await saveOriginalPrompt(app.db, body, app.clock()) });
    }
    const { name, content } = validate(Body, raw);
    const prompt = await savePrompt(app.db, name, content, app.clock());
    return json({ ok: true, prompt: promptJson(prompt) });
  },
  async DELETE(req, { app, url }) {
    const fromQuery = url.searchParams.get("id") ?? url.searchParams.get("name");
    const body = fromQuery === null ? validate(DeleteBody, await readJsonObject(req)) : {};
    const name = (fromQuery ?? body.id ?? body.name ?? "").trim();
    if (!name) throw new ValidationError("id is required", "id");
    try {
      await deletePrompt(app.db, name);
      return json({ ok: true, deleted: true });
    } catch (err) {
      if (err instanceof NotFoundError) return json({ ok: true, deleted: false });
      throw err;
    }
  },
};
