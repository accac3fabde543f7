// GET /api/skills[?q=&category=] → {skills:[{name, description, enabled, source, category,
// linked_files}], categories:[{name, count}]}, sorted by name. `q` matches name and description
// (case-insensitive); `category` keeps one category ("" for skills without one).
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { listSkills, skillFiles, skillJson } from "../../lib/agent/skills.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const all = await listSkills(app.config);
    const q = (url.searchParams.get("q") ?? "").trim().toLowerCase();
    const category = url.searchParams.get("category");
    const counts = new Map<string, number>();
    for (const s of all) counts.set(s.category ?? "", (counts.get(s.category ?? "") ?? 0) + 1);
    const shown = all.filter((s) =>
      (!q || s.name.includes(q) || s.description.toLowerCase().includes(q)) &&
      (category === null || (s.category ?? "") === category)
    );
    const skills = await Promise.all(
      shown.map(async (s) => ({ ...skillJson(s), linked_files: await skillFiles(s.dir) })),
    );
    return json({
      skills,
      categories: [...counts].map(([name, count]) => ({ name, count }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    });
  },
};
