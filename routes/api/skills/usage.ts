// GET /api/skills/usage → {usage: [{name, count, last_used_at}], total}: how often the agent
// loaded each skill (lib/agent/skill_usage.ts), most used first.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { listSkills } from "../../../lib/agent/skills.ts";
import { skillUsage } from "../../../lib/agent/skill_usage.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    const installed = (await listSkills(app.config)).map((s) => s.name);
    const usage = await skillUsage(app.db, installed);
    return json({ usage, total: usage.reduce((n, u) => n + u.count, 0) });
  },
};
