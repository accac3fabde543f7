// POST /api/skills/save {name, content} → {ok:true, skill}: create or replace SKILL.md.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { saveSkill, skillJson } from "../../../lib/agent/skills.ts";

const Body = z.object({ name: z.string(), content: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name, content } = await readBody(req, Body);
    return json({ ok: true, skill: skillJson(await saveSkill(app.config, name, content)) });
  },
};
