// POST /api/memory/write {section: "memory"|"user", content} → {ok:true, section, content}:
// replaces the whole file (the memory panel's editor).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { MEMORY_SECTIONS, writeMemory } from "../../../lib/agent/memory.ts";

const Body = z.object({
  section: z.enum(MEMORY_SECTIONS as ["memory", "user"]),
  content: z.string(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { section, content } = await readBody(req, Body);
    await writeMemory(app.config.stateDir, section, content);
    return json({ ok: true, section, content });
  },
};
