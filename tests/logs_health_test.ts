// GET /api/logs (the server's own recent lines: filtered, bounded, secrets redacted) and
// GET /api/system/health (database, disk, sandbox, providers, MCP; never a key).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { createLogger, RECENT_LINES } from "../lib/log.ts";

const KEY = "sk-test-SECRET-abcdef123456";

Deno.test("GET /api/logs filters by level and text, and never shows a secret", async () => {
  const app = await createTestApp({
    configYaml:
      `model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  api_key: ${KEY}\n`,
  });
  try {
    app.ctx.log.warn(`provider refused key ${KEY}`, { header: `Bearer ${KEY}` });
    app.ctx.log.error("disk nearly full");
    const all = await app.call<
      { logs: Array<{ level: string; message: string }>; last_seq: number }
    >(
      "GET",
      "/api/logs",
    );
    strictEqual(all.status, 200);
    ok(!JSON.stringify(all.body).includes(KEY), "a key leaked into /api/logs");
    ok(all.body.logs.some((l) => l.message === "provider refused key ***"));
    const errors = await app.call<{ logs: Array<{ level: string }> }>(
      "GET",
      "/api/logs?level=error",
    );
    deepStrictEqual(errors.body.logs.map((l) => l.level), ["ERROR"]);
    const q = await app.call<{ logs: unknown[] }>("GET", "/api/logs?q=DISK");
    strictEqual(q.body.logs.length, 1);
    const after = await app.call<{ logs: unknown[] }>(
      "GET",
      `/api/logs?after=${all.body.last_seq}`,
    );
    strictEqual(after.body.logs.length, 0);
    strictEqual((await app.call("GET", "/api/logs?level=loud")).status, 400);
    strictEqual((await app.call("GET", "/api/logs?limit=-1")).status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("the log ring is bounded", () => {
  const log = createLogger({ write: () => {} });
  for (let i = 0; i < RECENT_LINES + 500; i++) log.warn(`line ${i}`);
  const kept = log.recent();
  strictEqual(kept.length, RECENT_LINES);
  strictEqual(kept.at(-1)!.message, `line ${RECENT_LINES + 499}`);
});

Deno.test("GET /api/system/health reports each subsystem without secrets", async () => {
  const app = await createTestApp({
    configYaml:
      `model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  api_key: ${KEY}\n`,
  });
  try {
    // deno-lint-ignore no-explicit-any
    const res = await app.call<Record<string, any>>("GET", "/api/system/health");
    strictEqual(res.status, 200);
    strictEqual(res.body.ok, true);
    const c = res.body.checks;
    strictEqual(c.database.ok, true);
    ok(c.database.detail.includes("ok"));
    strictEqual(c.disk.ok, true);
    ok(c.disk.free_bytes > 0);
    strictEqual(typeof c.sandbox.bubblewrap, "boolean");
    strictEqual(c.providers.active, "custom");
    strictEqual(c.providers.endpoints[0].has_api_key, true);
    strictEqual(c.mcp.ok, true);
    ok(!JSON.stringify(res.body).includes(KEY), "a key leaked into the health report");
  } finally {
    await app.close();
  }
});

Deno.test("the Control Center's Logs panel shows recent lines, filtered, keys masked", async () => {
  const app = await createTestApp({
    configYaml:
      `model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  api_key: ${KEY}\n`,
  });
  try {
    app.ctx.log.warn(`upstream refused ${KEY}`);
    app.ctx.log.error("the <script>disk</script> is full");
    const all = await (await app.request("GET", "/partials/control-center?section=logs")).text();
    ok(all.includes("upstream refused ***"), all);
    ok(!all.includes(KEY), "a key leaked into the Logs panel");
    ok(all.includes("the &lt;script") && !all.includes("<script>disk"), "log text is escaped");
    const errors = await (await app.request(
      "GET",
      "/partials/control-center?section=logs&log_level=ERROR",
    )).text();
    ok(!errors.includes("upstream refused") && errors.includes("is full"));
    const q = await (await app.request(
      "GET",
      "/partials/control-center?section=logs&log_q=UPSTREAM",
    )).text();
    ok(q.includes("upstream refused") && !q.includes("is full"));
  } finally {
    await app.close();
  }
});
