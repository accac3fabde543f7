// POST /api/memory/write {section: "memory"|"user"|"soul", content, profile?} → {ok:true,
// section, path, content}: replaces the whole file (the memory panel's editor) in the profile's
// home (the active profile unless one is named); `path` is the file written, as the original says.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { memoryPath, writeMemory } from "../../../lib/agent/memory.ts";
import { writeSoul } from "../../../lib/agent/memory_files.ts";
import { soulPath } from "../../../lib/agent/soul.ts";
import { activeProfileName, getProfileSettings, profileHome } from "../../../lib/agent/profiles.ts";

const Body = z.object({
  section: z.enum(["memory", "user", "soul"]),
  content: z.string().max(256 * 1024),
  profile: z.string().max(64).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { section, content, profile } = await readBody(req, Body);
    const name = profile ?? await activeProfileName(app.db, app.config);
    getProfileSettings(app.config, name);
    const home = profileHome(app.config, name);
    if (section === "soul") await writeSoul(home, content);
    else await writeMemory(home, section, content);
    const path = section === "soul" ? soulPath(home) : memoryPath(home, section);
    return json({ ok: true, section, path, content });
  },
};
