// POST /api/skills/delete {name} → {ok:true}; unknown → 404.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { deleteSkill } from "../../../lib/agent/skills.ts";

const Body = z.object({ name: z.string() });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name } = await readBody(req, Body);
    await deleteSkill(app.config, name);
    return json({ ok: true });
  },
};
