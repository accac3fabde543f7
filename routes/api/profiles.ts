// GET /api/profiles → {profiles: [{name, path, is_default, is_active, skill_count, session_count,
// model, provider, personality, workspace, mcp_servers}], active}.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { activeProfileName, listProfiles, profileJson } from "../../lib/agent/profiles.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    const profiles = (await listProfiles(app.db, app.config)).map(profileJson);
    return json({ profiles, active: await activeProfileName(app.db, app.config) });
  },
};
