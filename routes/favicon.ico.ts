// GET /favicon.ico: the path browsers and the original's clients ask for by habit. The console's
// icon is an SVG (static/favicon.svg, the one the pages link): it is sent as what it is
// (image/svg+xml, which browsers accept at this path). Public, cached for a day like the
// original's icon.
import { fileURLToPath as fromFileUrl } from "node:url";
import type { Handlers } from "../lib/server/file_router.ts";
import { appUrl } from "../lib/server/app_paths.ts";

const ICON = fromFileUrl(appUrl("static/favicon.svg"));

export const handler: Handlers = {
  async GET() {
    return new Response(await Deno.readFile(ICON), {
      headers: {
        "content-type": "image/svg+xml",
        "cache-control": "public, max-age=86400",
      },
    });
  },
};
