// GET /api/memory[?session_id=&profile=] → {memory, user, soul, memory_path, user_path, soul_path,
// memory_mtime, user_mtime, soul_mtime, budget, profile, files: [{section, name, path, exists,
// mtime, size, budget, content}]}: the agent's MEMORY.md, USER.md and SOUL.md for the profile (the
// session's, else the one asked, else the active one) and, with a session, its workspace's project
// context files (AGENTS.md/HERMES.md, CLAUDE.md). The flat `<section>`, `<section>_path` and
// `<section>_mtime` fields (epoch seconds, null for a missing file) are the original's shape.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { PROMPT_BUDGET } from "../../lib/agent/memory.ts";
import { memoryFiles } from "../../lib/agent/memory_files.ts";
import {
  activeProfileName,
  getProfileSettings,
  profileHome,
  sessionProfile,
} from "../../lib/agent/profiles.ts";
import { getSession } from "../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const sid = url.searchParams.get("session_id");
    const session = sid ? await getSession(app.db, sid) : null;
    const asked = url.searchParams.get("profile");
    const profile = session
      ? await sessionProfile(app.db, session.session_id)
      : asked ?? await activeProfileName(app.db, app.config);
    getProfileSettings(app.config, profile); // 404 for an unknown profile
    const files = await memoryFiles(profileHome(app.config, profile), session?.workspace);
    const file = (section: string) => files.find((f) => f.section === section);
    return json({
      memory: file("memory")?.content ?? "",
      user: file("user")?.content ?? "",
      soul: file("soul")?.content ?? "",
      memory_path: file("memory")?.path ?? null,
      user_path: file("user")?.path ?? null,
      soul_path: file("soul")?.path ?? null,
      memory_mtime: file("memory")?.mtime ?? null,
      user_mtime: file("user")?.mtime ?? null,
      soul_mtime: file("soul")?.mtime ?? null,
      budget: PROMPT_BUDGET,
      profile,
      files,
    });
  },
};
