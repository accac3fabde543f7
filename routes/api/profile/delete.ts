// POST /api/profile/delete {name, sessions?: "move" | "delete"} → {ok, moved, deleted}. A
// profile with sessions answers 409 (with the count in the message) until `sessions` says what
// to do with them; `default` cannot be deleted (400). Its files stay on disk.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { deleteProfile } from "../../../lib/agent/profiles.ts";

const Body = z.object({
  name: z.string().min(1).max(64),
  sessions: z.enum(["move", "delete"]).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name, sessions } = await readBody(req, Body);
    const result = await deleteProfile(app, name, sessions);
    return json({ ok: true, ...result });
  },
};
