// POST /api/skills/toggle {name, enabled} → {ok:true, skill}; unknown → 404. A disabled skill
// is hidden from the agent's prompt and refused by the skill tool.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { skillJson, toggleSkill } from "../../../lib/agent/skills.ts";

const Body = z.object({ name: z.string(), enabled: z.boolean() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name, enabled } = await readBody(req, Body);
    return json({ ok: true, skill: skillJson(await toggleSkill(app.config, name, enabled)) });
  },
};
