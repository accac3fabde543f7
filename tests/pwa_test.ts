// The installable app: /manifest.json (name, icons, standalone, DESIGN.md colours), /sw.js
// (served fresh, allowed at /, versioned by the build, caching only /static/ and never the API,
// partials, streams or pages) and both reachable before login.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { cssToken } from "../lib/pwa/web_manifest.ts";
import {
  buildVersion,
  bundleFiles,
  OFFLINE_HTML,
  serviceWorkerSource,
} from "../lib/pwa/service_worker.ts";
import type { PageScriptBundle } from "../lib/server/page_scripts.ts";

const PASSWORD = "correct horse battery staple";

Deno.test("GET /manifest.json describes a standalone app in the DESIGN.md palette", async () => {
  const app = await createTestApp();
  try {
    const res = await app.request("GET", "/manifest.json");
    strictEqual(res.status, 200);
    match(res.headers.get("content-type") ?? "", /^application\/manifest\+json/);
    const m = await res.json();
    strictEqual(m.name, "Hermes Console");
    ok(m.short_name && m.short_name.length <= 12, m.short_name);
    strictEqual(m.start_url, "/");
    strictEqual(m.display, "standalone");
    const css = await Deno.readTextFile(new URL("../static/style.css", import.meta.url));
    strictEqual(m.theme_color, cssToken(css, "neutral"));
    strictEqual(m.background_color, cssToken(css, "neutral"));
    strictEqual(m.theme_color, "#0a0908", "DESIGN.md neutral");
    const sizes = m.icons.map((i: { sizes: string; type: string }) => `${i.sizes} ${i.type}`);
    for (const want of ["any image/svg+xml", "192x192 image/png", "512x512 image/png"]) {
      ok(sizes.includes(want), `icon ${want} in ${sizes}`);
    }
    for (const icon of m.icons as Array<{ src: string; type: string; sizes: string }>) {
      const r = await app.request("GET", icon.src);
      strictEqual(r.status, 200, icon.src);
      strictEqual(r.headers.get("content-type"), icon.type, icon.src);
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (icon.type === "image/png") {
        // PNG IHDR: width and height big-endian at bytes 16–23.
        const view = new DataView(bytes.buffer);
        const [w, h] = icon.sizes.split("x").map(Number);
        deepStrictEqual([view.getUint32(16), view.getUint32(20)], [w, h], icon.src);
      }
    }
    // The page head links it.
    const page = await (await app.request("GET", "/")).text();
    ok(page.includes('<link rel="manifest" href="/manifest.json"/>'), "linked from <head>");
  } finally {
    await app.close();
  }
});

Deno.test("GET /sw.js is served fresh, allowed at /, and public like the manifest", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const res = await app.request("GET", "/sw.js");
    strictEqual(res.status, 200, "no login needed to install the worker");
    match(res.headers.get("content-type") ?? "", /^text\/javascript/);
    strictEqual(res.headers.get("cache-control"), "no-cache");
    strictEqual(res.headers.get("service-worker-allowed"), "/");
    const src = await res.text();
    ok(src.includes('"/static/style.css"'), "precaches the shell's stylesheet");
    strictEqual((await app.request("GET", "/manifest.json")).status, 200);
    strictEqual((await app.request("GET", "/static/icons/icon-192.png")).status, 200);
    strictEqual((await app.request("GET", "/")).status, 302, "the console still needs login");
  } finally {
    await app.close();
  }
});

Deno.test("serviceWorkerSource() is versioned by the build and lists its bundles", async () => {
  const bundle = {
    version: 1,
    base: "/static/_islands/",
    entry: { file: "boot-AAAAAAAA.js", imports: ["chunk-BBBBBBBB.js"] },
    islands: { Composer: { file: "Composer-CCCCCCCC.js", imports: ["chunk-BBBBBBBB.js"] } },
    scripts: { layout: { file: "layout-DDDDDDDD.js", imports: [] } },
  } as unknown as PageScriptBundle;
  deepStrictEqual(bundleFiles(bundle), [
    "/static/_islands/Composer-CCCCCCCC.js",
    "/static/_islands/boot-AAAAAAAA.js",
    "/static/_islands/chunk-BBBBBBBB.js",
    "/static/_islands/layout-DDDDDDDD.js",
  ]);
  const v1 = await buildVersion(bundle);
  const v2 = await buildVersion({ ...bundle, entry: { file: "boot-EEEEEEEE.js", imports: [] } });
  match(v1, /^[0-9a-f]{16}$/);
  ok(v1 !== v2, "a new build is a new cache");
  strictEqual(await buildVersion(undefined), "dev");
  const src = serviceWorkerSource(v1, bundleFiles(bundle));
  ok(src.includes(`"version":"${v1}"`));
  ok(src.includes("/static/_islands/Composer-CCCCCCCC.js"));
});

Deno.test("the service worker caches only /static/ and never the API, streams or pages", async () => {
  // Run the worker's source against a fake ServiceWorkerGlobalScope and record what it caches.
  const src = serviceWorkerSource("test", ["/static/style.css"]);
  const listeners: Record<string, (e: unknown) => void> = {};
  const cached: string[] = [];
  const fetched: string[] = [];
  let online = true;
  const cache = {
    add: (u: string) => (cached.push(u), Promise.resolve()),
    put: (r: Request) => (cached.push(new URL(r.url).pathname), Promise.resolve()),
    match: () => Promise.resolve(undefined),
  };
  const scope = {
    location: new URL("http://127.0.0.1:8787/sw.js"),
    addEventListener: (type: string, fn: (e: unknown) => void) => (listeners[type] = fn),
    skipWaiting: () => Promise.resolve(),
    clients: { claim: () => Promise.resolve() },
  };
  const caches = { open: () => Promise.resolve(cache), keys: () => Promise.resolve([]) };
  const fakeFetch = (req: Request) => {
    fetched.push(new URL(req.url).pathname);
    if (!online) return Promise.reject(new TypeError("Failed to fetch"));
    const res = new Response("x", { status: 200 });
    Object.defineProperty(res, "type", { value: "basic" });
    return Promise.resolve(res);
  };
  new Function("self", "caches", "fetch", "Response", src)(scope, caches, fakeFetch, Response);

  let waited: Promise<unknown> = Promise.resolve();
  listeners.install({ waitUntil: (p: Promise<unknown>) => (waited = p) });
  await waited;
  deepStrictEqual(cached, ["/static/style.css"], "precache");

  const dispatch = async (
    path: string,
    init: { method?: string; mode?: string } = {},
  ): Promise<Response | null> => {
    const req = new Request(`http://127.0.0.1:8787${path}`, { method: init.method ?? "GET" });
    Object.defineProperty(req, "mode", { value: init.mode ?? "cors" });
    const answered: Array<Promise<Response>> = [];
    listeners.fetch({ request: req, respondWith: (p: Promise<Response>) => answered.push(p) });
    return answered.length ? await answered[0] : null;
  };
  cached.length = 0;
  for (
    const path of [
      "/api/session?session_id=abc",
      "/api/chat/stream?stream_id=x",
      "/api/sessions",
      "/partials/sidebar",
      "/share/abcdef",
      "/static/style.css?v=1",
    ]
  ) {
    strictEqual(await dispatch(path), null, `${path} goes straight to the network`);
  }
  strictEqual(await dispatch("/api/chat/start", { method: "POST" }), null);
  // Pages are fetched through, never stored.
  strictEqual((await dispatch("/", { mode: "navigate" }))?.status, 200);
  strictEqual((await dispatch("/session/abc", { mode: "navigate" }))?.status, 200);
  strictEqual((await dispatch("/static/markdown.css"))?.status, 200);
  deepStrictEqual(cached, ["/static/markdown.css"], "only the static file was cached");

  // Offline: a navigation shows the offline page, which runs nothing.
  online = false;
  const offline = await dispatch("/", { mode: "navigate" });
  strictEqual(offline?.status, 503);
  match(offline?.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  const html = await offline!.text();
  ok(html.includes("The server is unreachable"));
  strictEqual(html, OFFLINE_HTML);
  ok(!/<script/i.test(html), "no script on the offline page");
  deepStrictEqual(cached, ["/static/markdown.css"]);
});
