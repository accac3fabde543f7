// GET /api/skills → {skills:[{name, description, enabled, source}]}, sorted by name.
import type { Handlers } from "../../lib/file_router.ts";
import { json } from "../../lib/http.ts";
import { listSkills, skillJson } from "../../lib/skills.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ skills: (await listSkills(app.config)).map(skillJson) });
  },
};
