// GET /manifest.webmanifest: the original's second name for the web app manifest; the same
// answer as /manifest.json (routes/manifest.json.ts). Public, like the icons it names.
import type { Handlers } from "../lib/server/file_router.ts";
import { handler as manifestJson } from "./manifest.json.ts";

export const handler: Handlers = {
  GET: (req, ctx) => manifestJson.GET!(req, ctx),
};
