// GET /sw.js: the service worker of the installed app (lib/pwa/service_worker.ts), versioned by
// the build's bundle manifest so a new build replaces the cached shell. `no-cache` makes the
// browser check for a new worker on every visit; `Service-Worker-Allowed: /` lets it control
// the whole origin.
import type { Handlers } from "../lib/server/file_router.ts";
import { createBundleReader } from "../lib/server/islands.ts";
import type { PageScriptBundle } from "../lib/server/page_scripts.ts";
import {
  buildVersion,
  bundleFiles,
  serviceWorkerSource,
  SHELL_ASSETS,
} from "../lib/pwa/service_worker.ts";

const readBundle = createBundleReader();

export const handler: Handlers = {
  async GET() {
    const bundle = readBundle() as PageScriptBundle | undefined;
    const source = serviceWorkerSource(await buildVersion(bundle), [
      ...SHELL_ASSETS,
      ...bundleFiles(bundle),
    ]);
    return new Response(source, {
      headers: {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "no-cache",
        "service-worker-allowed": "/",
      },
    });
  },
};
