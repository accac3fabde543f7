// GET /api/skills/content?name= → {name, description, enabled, source, content} (SKILL.md text).
// No name → 400; invalid name → 400; unknown → 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { readSkill, skillJson } from "../../../lib/agent/skills.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const skill = await readSkill(app.config, requireParam(url, "name"));
    return json({ ...skillJson(skill), content: skill.content });
  },
};
