// POST /api/skills/save {name, content} → {ok:true, name, path, skill}: create or replace SKILL.md;
// `name` and `path` (the SKILL.md written) are the original's answer, `skill` the list entry.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { join } from "node:path";
import { saveSkill, skillJson } from "../../../lib/agent/skills.ts";

const Body = z.object({ name: z.string(), content: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name, content } = await readBody(req, Body);
    const skill = await saveSkill(app.config, name, content);
    return json({
      ok: true,
      name: skill.name,
      path: join(skill.dir, "SKILL.md"),
      skill: skillJson(skill),
    });
  },
};
