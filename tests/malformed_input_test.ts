// Inputs from the fuzz corpus that once answered 500 or were silently rewritten: each is now a
// clear 4xx (issue 12, finding 10).
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";

Deno.test("decodedPath(): malformed percent-encodings are a 400/404, never a 500", async () => {
  const app = await createTestApp();
  try {
    for (
      const path of [
        "/static/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
        "/static/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd?x=1",
        "/static/%e0%80%ae/x",
        "/static/%ff",
        "/static/%",
        "/api/session/%c0",
        "/%c0%ae%c0%ae/etc/passwd",
      ]
    ) {
      const res = await app.call("GET", path);
      ok(res.status === 400 || res.status === 404, `${path} → ${res.status}`);
      ok(typeof res.body === "object" && res.body !== null && "error" in res.body, path);
      ok(!String(res.body.error).includes("root:"), path);
    }
    // A well-formed escape still reaches its file.
    strictEqual((await app.request("GET", "/static/style%2ecss")).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/session/import with a workspace that does not exist is a 400 naming it", async () => {
  const app = await createTestApp();
  try {
    const missing = join(app.workspace, "..", "no-such-dir");
    const res = await app.call("POST", "/api/session/import", {
      title: "elsewhere",
      workspace: missing,
      messages: [{ role: "user", content: "hi" }],
    });
    strictEqual(res.status, 400, JSON.stringify(res.body));
    ok(String(res.body.error).includes("no-such-dir"), String(res.body.error));
    strictEqual(
      (await app.call<{ sessions: unknown[] }>("GET", "/api/sessions")).body.sessions
        .length,
      0,
    );
    // An existing, trusted workspace is kept; none given → the default.
    const kept = await app.call<{ session: { workspace: string } }>("POST", "/api/session/import", {
      workspace: app.workspace,
      messages: [],
    });
    strictEqual(kept.status, 200);
    strictEqual(kept.body.session.workspace, await Deno.realPath(app.workspace));
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/models/refresh without a provider is a 400", async () => {
  const app = await createTestApp();
  try {
    for (const body of [{}, { provider: null }, { provider: "" }, undefined]) {
      const res = await app.call("POST", "/api/models/refresh", body);
      strictEqual(res.status, 400, JSON.stringify(body));
      ok(/provider/.test(String(res.body.error)), JSON.stringify(res.body));
    }
    strictEqual((await app.call("POST", "/api/models/refresh", { provider: "all" })).status, 200);
  } finally {
    await app.close();
  }
});
