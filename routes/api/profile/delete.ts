// POST /api/profile/delete {name, sessions?: "move" | "delete"} → {ok, name, moved, deleted}.
// As in the original, the profile is deleted without asking first; its sessions are kept and go
// on under `default` ("move", the default) unless `sessions: "delete"` says to remove them.
// `default` cannot be deleted (400); an unknown name is 404. Its files stay on disk.
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
    return json({ ok: true, name: name.trim(), ...result });
  },
};
