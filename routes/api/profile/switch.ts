// POST /api/profile/switch {name} → {ok, active}: new chats use this profile from now on;
// sessions already created (and their running turns) keep theirs.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { setActiveProfile } from "../../../lib/agent/profiles.ts";
import { ProfileNameBody } from "../../../lib/agent/profile_body.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name } = await readBody(req, ProfileNameBody);
    await setActiveProfile(app.db, app.config, name.trim());
    return json({ ok: true, active: name.trim() });
  },
};
