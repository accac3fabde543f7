// GET /api/profile/active → {name, path}: the profile new chats are created under.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { activeProfileName, profileHome } from "../../../lib/agent/profiles.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    const name = await activeProfileName(app.db, app.config);
    return json({ name, path: profileHome(app.config, name) });
  },
};
