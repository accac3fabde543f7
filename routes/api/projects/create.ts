// POST /api/projects/create {name≤128, color?} → {ok, project}.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { COLOR_RE, createProject, MAX_PROJECT_NAME } from "../../../lib/sessions/projects.ts";

const Body = z.object({
  name: z.string().trim().min(1, "must not be empty").max(MAX_PROJECT_NAME),
  color: z.string().regex(COLOR_RE, "must be a hex colour like #3b82f6").nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    return json({ ok: true, project: await createProject(app.db, app.clock, body) });
  },
};
