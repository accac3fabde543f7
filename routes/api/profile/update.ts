// POST /api/profile/update {name, model?, provider?, personality?, workspace?, mcp_servers?}
// → {ok, profile}: a null field removes it (the console's default applies again).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { listProfiles, profileJson, updateProfile } from "../../../lib/agent/profiles.ts";
import { ProfileNameBody, ProfileSettingsBody } from "../../../lib/agent/profile_body.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";

const Body = ProfileSettingsBody.extend(ProfileNameBody.shape);

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name, ...settings } = await readBody(req, Body);
    if (settings.workspace) {
      settings.workspace = await resolveTrustedWorkspace(app, settings.workspace);
    }
    await updateProfile(app, name, settings);
    const profile = (await listProfiles(app.db, app.config)).find((p) => p.name === name)!;
    return json({ ok: true, profile: profileJson(profile) });
  },
};
