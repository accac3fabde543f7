// GET /manifest.json: the web app manifest that makes the console installable
// (lib/pwa/web_manifest.ts). Public, like the icons it names.
import type { Handlers } from "../lib/server/file_router.ts";
import { webManifest } from "../lib/pwa/web_manifest.ts";
import { readPreferences } from "../lib/settings/settings.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    const botName = String((await readPreferences(app.db)).bot_name ?? "");
    return new Response(JSON.stringify(webManifest(botName), null, 2), {
      headers: {
        "content-type": "application/manifest+json; charset=utf-8",
        "cache-control": "no-cache",
      },
    });
  },
};
