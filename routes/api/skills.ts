// GET /api/skills → {skills:[{name, description, enabled, source}]}, sorted by name.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { listSkills, skillJson } from "../../lib/agent/skills.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ skills: (await listSkills(app.config)).map(skillJson) });
  },
};
