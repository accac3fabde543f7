// POST /api/profile/create {name, clone_from?, model?, provider?, personality?, workspace?,
// mcp_servers?} → {ok, profile}. 409 for a name that exists; the workspace must be trusted.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { createProfile, listProfiles, profileJson } from "../../../lib/agent/profiles.ts";
import { ProfileNameBody, ProfileSettingsBody } from "../../../lib/agent/profile_body.ts";
import { resolveTrustedWorkspace } from "../../../lib/workspace/workspaces.ts";
import { z } from "zod";

const Body = ProfileSettingsBody.extend(ProfileNameBody.shape).extend({
  clone_from: z.string().max(64).nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { name, clone_from, ...settings } = await readBody(req, Body);
    if (settings.workspace) {
      settings.workspace = await resolveTrustedWorkspace(app, settings.workspace);
    }
    await createProfile(app, name, settings, clone_from);
    const profile = (await listProfiles(app.db, app.config)).find((p) => p.name === name.trim())!;
    return json({ ok: true, profile: profileJson(profile) });
  },
};
