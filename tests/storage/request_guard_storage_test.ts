// The guard every request passes (routes/_middleware.ts: login check, settings for the page,
// rate limits) reads and writes storage only through the async API: on PostgreSQL a synchronous
// statement blocks the whole server until it answers (issue 28). Counted here by spying on
// whatever synchronous entry points the database handle still has (`prepare`, `exec`; none once
// the synchronous half is removed) and keeping the calls whose caller is the guard or the auth
// and settings code it runs (a route's own statements are its area's, not the guard's).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "../helpers.ts";
import type { Db } from "../../lib/storage/db.ts";

const PASSWORD = "a long enough password";
const GUARD_CODE = /routes\/_middleware\.ts|lib\/security\/|lib\/settings\//;

/** Record the synchronous statements whose first caller outside lib/storage/ is the guard's. */
function spyOnSyncCalls(handle: Db): string[] {
  const seen: string[] = [];
  const record = (sql: string) => {
    const callers = (new Error().stack ?? "").split("\n").slice(2)
      .filter((line) => !line.includes("/lib/storage/") && !line.includes(import.meta.url));
    if (GUARD_CODE.test(callers[0] ?? "")) seen.push(`${sql.trim()} ← ${callers[0].trim()}`);
  };
  // Typed loosely: the synchronous half is no longer part of the Db interface.
  const db = handle as unknown as Record<string, unknown>;
  for (const name of ["prepare", "exec"]) {
    const sync = db[name];
    if (typeof sync !== "function") continue;
    db[name] = (sql: string) => (record(sql), sync.call(handle, sql));
  }
  return seen;
}

Deno.test("the request guard issues no synchronous statement, with auth on and off", async () => {
  const app = await createTestApp();
  try {
    const sync = spyOnSyncCalls(app.ctx.db);
    // Auth off: a static file, a page's settings, an unknown API path, a rate-limited write.
    strictEqual((await app.request("GET", "/static/style.css")).status, 200);
    strictEqual((await app.request("GET", "/login")).status, 200);
    strictEqual((await app.request("GET", "/api/nope")).status, 404);
    ok((await app.request("POST", "/api/upload", {})).status < 500);

    // Setting the password (settings, session revocation, a new login session) and using it.
    const set = await app.request("POST", "/api/settings", { password: PASSWORD });
    strictEqual(set.status, 200);
    const cookie = (set.headers.get("set-cookie") ?? "").split(";")[0];
    ok(cookie.startsWith("hermes_session="), "the one who set it stays logged in");
    strictEqual((await app.request("GET", "/static/style.css", undefined, { cookie })).status, 200);
    strictEqual((await app.request("GET", "/api/nope", undefined, { cookie })).status, 404);
    strictEqual((await app.request("GET", "/api/nope")).status, 401, "no cookie: no entry");
    strictEqual((await app.request("GET", "/login")).status, 200);
    strictEqual((await app.call("POST", "/api/auth/login", { password: "wrong" })).status, 401);
    strictEqual((await app.call("POST", "/api/auth/login", { password: PASSWORD })).status, 200);
    strictEqual((await app.request("POST", "/api/auth/logout", {}, { cookie })).status, 200);
    strictEqual((await app.request("GET", "/api/nope", undefined, { cookie })).status, 401);
    deepStrictEqual(sync, [], "every statement of the guard went through the async API");
  } finally {
    await app.close();
  }
});
