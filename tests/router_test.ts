import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { routePathFromFile } from "../lib/server/file_router.ts";
import { generateManifest } from "../tools/gen_manifest.ts";

Deno.test("routePathFromFile() maps Fresh-style file names to URL patterns", () => {
  assertEquals(routePathFromFile("./routes/index.tsx"), "/");
  assertEquals(routePathFromFile("./routes/api/session/new.ts"), "/api/session/new");
  assertEquals(routePathFromFile("./routes/api/mcp/servers/[name].ts"), "/api/mcp/servers/:name");
  assertEquals(routePathFromFile("./routes/static/[...path].ts"), "/static/*");
  assertEquals(routePathFromFile("./routes/api/index.ts"), "/api");
});

Deno.test("routes.gen.ts is up to date with routes/ and islands/", async () => {
  const current = await Deno.readTextFile(new URL("../routes.gen.ts", import.meta.url));
  assertEquals(current, generateManifest(), "run `deno task manifest`");
});

Deno.test("unknown routes answer a JSON 404 with the security headers", async () => {
  const app = await createTestApp();
  try {
    const res = await app.request("GET", "/api/does-not-exist");
    assertEquals(res.status, 404);
    assertEquals(await res.json(), { error: "not found" });
    assertEquals(res.headers.get("x-content-type-options"), "nosniff");
    assertEquals(res.headers.get("cache-control"), "no-store");
  } finally {
    await app.close();
  }
});

Deno.test("GET /health reports status, sessions and uptime", async () => {
  const app = await createTestApp();
  try {
    const { status, body } = await app.call("GET", "/health");
    assertEquals(status, 200);
    assertEquals(body.status, "ok");
    assertEquals(body.sessions, 0);
    assertEquals(body.active_streams, 0);
  } finally {
    await app.close();
  }
});
