import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers.ts";
import { manifestRoutes } from "../fixtures/manifest_routes.ts";
import { hashPassword, verifyPassword } from "../../lib/security/password.ts";
import { createRateLimiter } from "../../lib/security/rate_limit.ts";
import { isPublicPath, safeNextPath } from "../../lib/security/request_guard.ts";
import { PASSWORD_HASH_SETTING, revokeAllSessions, SECRET_FILE } from "../../lib/security/auth.ts";
import { checkStartupSafety } from "../../main.ts";
import { type AsyncQueries, sql } from "../../lib/storage/db.ts";
import { ConfigError, loadConfig } from "../../lib/settings/config.ts";

const PASSWORD = "correct horse battery staple";

/** A test clock the test can move forward (epoch seconds). */
function manualClock(start = 1_800_000_000) {
  let now = start;
  const clock = () => now;
  return { clock, advance: (s: number) => (now += s) };
}

async function login(app: TestApp, password = PASSWORD, headers: Record<string, string> = {}) {
  const res = await app.request("POST", "/api/auth/login", { password }, headers);
  const body = await res.json();
  return { res, body, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
}

Deno.test("hashPassword() produces a salted PBKDF2 hash that verifyPassword() accepts", async () => {
  const a = await hashPassword(PASSWORD);
  const b = await hashPassword(PASSWORD);
  ok(a.startsWith("pbkdf2-sha256$"), a);
  ok(Number(a.split("$")[1]) >= 210_000, "too few iterations");
  ok(a !== b, "the salt must differ between hashes");
  ok(!a.includes(PASSWORD));
  strictEqual(await verifyPassword(PASSWORD, a), true);
  strictEqual(await verifyPassword(PASSWORD + " ", a), false);
  strictEqual(await verifyPassword("", a), false);
  // Tampered or foreign hashes never match and never throw.
  const parts = a.split("$");
  strictEqual(
    await verifyPassword(PASSWORD, [parts[0], "1000", parts[2], parts[3]].join("$")),
    false,
  );
  strictEqual(
    await verifyPassword(PASSWORD, [parts[0], "9999999", parts[2], parts[3]].join("$")),
    false,
  );
  strictEqual(await verifyPassword(PASSWORD, "md5$abc"), false);
  strictEqual(await verifyPassword(PASSWORD, null), false);
  await rejects(hashPassword(""), TypeError);
});

Deno.test("createRateLimiter() allows `limit` hits per window per key, then says when to retry", async () => {
  const t = manualClock();
  const rl = createRateLimiter({ limit: 3, windowSeconds: 60, clock: t.clock });
  for (let i = 0; i < 3; i++) strictEqual((await rl.hit("a")).ok, true);
  const refused = await rl.hit("a");
  strictEqual(refused.ok, false);
  strictEqual(refused.retryAfterSeconds, 60);
  strictEqual((await rl.hit("b")).ok, true, "keys are independent");
  t.advance(30);
  strictEqual((await rl.peek("a")).retryAfterSeconds, 30);
  t.advance(30.5);
  strictEqual((await rl.hit("a")).ok, true, "the window slides");
  await rl.reset("a");
  strictEqual((await rl.peek("a")).count, 0);
  const small = createRateLimiter({ limit: 1, windowSeconds: 60, clock: t.clock, maxKeys: 2 });
  await small.hit("x");
  await small.hit("y");
  await small.hit("z");
  strictEqual(
    (await small.peek("x")).count,
    0,
    "the least recently seen key is forgotten past maxKeys",
  );
});

Deno.test("safeNextPath() honours only same-site relative paths", () => {
  for (const good of ["/", "/session/abc", "/x?y=1#z", "/a/b/"]) {
    strictEqual(safeNextPath(good), good);
  }
  for (
    const bad of [
      null,
      "",
      "//evil.com",
      "/\\evil.com",
      "\\\\evil.com",
      "https://evil.com",
      "http:/evil.com",
      "javascript:alert(1)",
      "evil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      "/%2F/evil.com",
      "/%5Cevil.com",
      "/x\u0000",
      "/login",
      " /x",
      "/" + "a".repeat(3000),
    ]
  ) {
    strictEqual(safeNextPath(bad), "/", JSON.stringify(bad));
  }
});

Deno.test("GET /api/auth/status reports auth off by default, and the console is open", async () => {
  const app = await createTestApp();
  try {
    deepStrictEqual((await app.call("GET", "/api/auth/status")).body, {
      auth_enabled: false,
      logged_in: true,
      password_enabled: false,
      passkeys_enabled: false,
      oidc_enabled: false,
    });
    strictEqual((await app.call("GET", "/api/list?session_id=000000000000")).status, 404);
    const page = await app.request("GET", "/login");
    // As in the original: a page that says sign-in is off (not a redirect), linking on.
    strictEqual(page.status, 200, "the login page explains that no password is set");
    match(await page.text(), /no password is set/);
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/auth/login sets a signed HttpOnly cookie that opens the API", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    strictEqual((await app.call("GET", "/api/auth/status")).body.logged_in, false);
    const wrong = await login(app, "nope");
    strictEqual(wrong.res.status, 401);
    deepStrictEqual(wrong.body, { error: "Invalid password" });
    strictEqual(wrong.res.headers.get("set-cookie"), null);

    const { res, body, cookie } = await login(app);
    strictEqual(res.status, 200);
    deepStrictEqual(body, { ok: true });
    const setCookie = res.headers.get("set-cookie")!;
    ok(/^hermes_session=[0-9a-f]{32}\.\d+\.[A-Za-z0-9_-]{43};/.test(setCookie), setCookie);
    ok(/; HttpOnly/.test(setCookie) && /; SameSite=Lax/.test(setCookie), setCookie);
    ok(/; Max-Age=2592000/.test(setCookie) && /; Path=\//.test(setCookie), setCookie);
    ok(!setCookie.includes(PASSWORD));

    const status = await app.call("GET", "/api/auth/status", undefined, { cookie });
    strictEqual(status.body.auth_enabled, true);
    strictEqual(status.body.logged_in, true);
    ok(typeof status.body.csrf_token === "string" && status.body.csrf_token.length >= 40);
    // Authenticated requests reach the routes (an unknown session is now a 404, not a 401).
    strictEqual(
      (await app.call("GET", "/api/list?session_id=000000000000", undefined, { cookie }))
        .status,
      404,
    );
    strictEqual((await app.request("GET", "/", undefined, { cookie })).status, 200);
    // The login page sends a logged-in browser straight on.
    const again = await app.request("GET", "/login?next=/x", undefined, { cookie });
    strictEqual(again.status, 302);
    strictEqual(again.headers.get("location"), "/x");
    for (const line of app.logs) ok(!line.includes(PASSWORD), line);
  } finally {
    await app.close();
  }
});

Deno.test("with auth on, every route refuses a request without a cookie (401 API, 302 pages)", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const all = manifestRoutes();
    ok(all.length >= 10, `only ${all.length} routes in the manifest`);
    let checked = 0;
    for (const { method, path, page } of all) {
      const res = await app.request(
        method,
        path + "?session_id=000000000000",
        method === "GET" ? undefined : {},
      );
      const text = await res.text();
      const label = `${method} ${path} → ${res.status} ${text.slice(0, 100)}`;
      if (isPublicPath(path)) {
        ok(
          res.status !== 401 && res.headers.get("location")?.startsWith("/login?") !== true,
          label,
        );
        continue;
      }
      checked++;
      if (path.startsWith("/api/") || path.startsWith("/partials/") || method !== "GET") {
        strictEqual(res.status, 401, label);
        deepStrictEqual(JSON.parse(text), { error: "Authentication required" }, label);
      } else {
        ok(page, label);
        strictEqual(res.status, 302, label);
        strictEqual(
          res.headers.get("location"),
          `/login?next=${encodeURIComponent(path + "?session_id=000000000000")}`,
          label,
        );
      }
    }
    ok(checked >= 5, `only ${checked} protected routes checked`);
    // Unknown routes are protected too (no way to probe which exist), and so are encoded ones.
    strictEqual((await app.request("GET", "/api/nope")).status, 401);
    strictEqual((await app.request("GET", "/%61pi/list?session_id=000000000000")).status, 401);
    strictEqual((await app.request("GET", "/api/auth/../list")).status, 401);
    strictEqual((await app.request("GET", "/static/..%2F..%2Fmain.ts")).status, 404);
    // Public paths stay public.
    strictEqual((await app.request("GET", "/health")).status, 200);
    strictEqual((await app.request("GET", "/login")).status, 200);
    strictEqual((await app.request("GET", "/api/auth/status")).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("forged, tampered, expired and revoked cookies are refused", async () => {
  const t = manualClock();
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD }, clock: t.clock });
  try {
    const { cookie } = await login(app);
    const value = cookie.slice("hermes_session=".length);
    const [nonce, exp, sig] = value.split(".");
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    const forged = [
      `${"0".repeat(32)}.${exp}.${sig}`,
      `${nonce}.${Number(exp) + 1000}.${sig}`,
      `${nonce}.${exp}.${flip(sig)}`,
      `${nonce}.${exp}.`,
      `${nonce}.${exp}`,
      "admin",
      "",
      `${nonce}.${exp}.${sig}.extra`,
      `${nonce.toUpperCase()}.${exp}.${sig}`,
    ];
    const probe = (c: string) => app.call("GET", "/api/nope", undefined, { cookie: c });
    strictEqual((await probe(cookie)).status, 404, "the genuine cookie works");
    for (const f of forged) strictEqual((await probe(`hermes_session=${f}`)).status, 401, f);

    // A cookie signed under another password (another console, or before a change) fails.
    const other = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: "another password" } });
    try {
      const foreign = (await login(other, "another password")).cookie;
      strictEqual((await probe(foreign)).status, 401);
    } finally {
      await other.close();
    }

    // Logout revokes the session server-side: a copy of the cookie stops working.
    const second = (await login(app)).cookie;
    const out = await app.request("POST", "/api/auth/logout", undefined, { cookie: second });
    deepStrictEqual(await out.json(), { ok: true });
    ok(/^hermes_session=;.*Max-Age=0/.test(out.headers.get("set-cookie") ?? ""));
    strictEqual((await probe(second)).status, 401);
    strictEqual((await probe(cookie)).status, 404, "other sessions survive a logout");

    // Cookies expire after 30 days.
    t.advance(30 * 24 * 3600 + 1);
    strictEqual((await probe(cookie)).status, 401);
  } finally {
    await app.close();
  }
});

Deno.test("more than 5 failed logins per minute from one client → 429", async () => {
  const t = manualClock();
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD }, clock: t.clock });
  try {
    for (let i = 0; i < 5; i++) strictEqual((await login(app, `guess ${i}`)).res.status, 401);
    const limited = await login(app, "guess 6");
    strictEqual(limited.res.status, 429);
    ok(/Too many failed login attempts/.test(limited.body.error));
    ok(Number(limited.res.headers.get("retry-after")) > 0);
    strictEqual((await login(app)).res.status, 429, "even the right password waits");
    // Another client is not affected.
    const fromElsewhere = await app.fetch(
      new Request("http://127.0.0.1:8787/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ password: PASSWORD }),
      }),
      {
        remoteAddr: { hostname: "10.1.2.3", port: 5000, transport: "tcp" },
      } as Deno.ServeHandlerInfo,
    );
    strictEqual(fromElsewhere.status, 200);
    t.advance(61);
    strictEqual((await login(app)).res.status, 200, "the window passes");
    // A success clears the failures.
    for (let i = 0; i < 5; i++) strictEqual((await login(app, "x")).res.status, 401);
  } finally {
    await app.close();
  }
});

/** Store the password hash in the settings table, as the settings page does. */
async function setPasswordHash(db: AsyncQueries, hash: string): Promise<void> {
  await db.run(
    sql`INSERT INTO settings (key, value) VALUES (${PASSWORD_HASH_SETTING}, ${hash})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
}

Deno.test("a password stored in settings enables auth; changing it invalidates cookies", async () => {
  const app = await createTestApp();
  try {
    const hash = await hashPassword(PASSWORD);
    await setPasswordHash(app.ctx.db, hash);
    strictEqual((await app.call("GET", "/api/auth/status")).body.auth_enabled, true);
    strictEqual((await app.request("GET", "/api/nope")).status, 401);
    strictEqual((await login(app, "wrong")).res.status, 401);
    const { cookie } = await login(app);
    strictEqual((await app.request("GET", "/api/nope", undefined, { cookie })).status, 404);

    await setPasswordHash(app.ctx.db, await hashPassword("a new password"));
    strictEqual((await app.request("GET", "/api/nope", undefined, { cookie })).status, 401);
    strictEqual((await login(app)).res.status, 401, "the old password no longer works");
    const fresh = (await login(app, "a new password")).cookie;
    strictEqual((await app.request("GET", "/api/nope", undefined, { cookie: fresh })).status, 404);
    await revokeAllSessions(app.ctx.db);
    strictEqual((await app.request("GET", "/api/nope", undefined, { cookie: fresh })).status, 401);

    // The signing secret lives in the state dir, readable by its owner only.
    const info = await Deno.stat(join(app.stateDir, SECRET_FILE));
    strictEqual(info.mode! & 0o777, 0o600);
    await app.ctx.db.run(sql`DELETE FROM settings WHERE key = ${PASSWORD_HASH_SETTING}`);
    strictEqual((await app.call("GET", "/api/auth/status")).body.auth_enabled, false);
  } finally {
    await app.close();
  }
});

Deno.test("the login page is a calm form with no inline script and a safe `next`", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const res = await app.request("GET", "/login?next=%2F%2Fevil.com&error=invalid");
    strictEqual(res.status, 200);
    const html = await res.text();
    ok(html.includes('data-next="/"'), "an off-site next falls back to /");
    ok(html.includes('type="password"') && html.includes('src="/static/login.js"'));
    ok(html.includes("That password is not right"));
    ok(!/<script(?![^>]*\bsrc=)[^>]*>/.test(html), "no inline script");
    const csp = res.headers.get("content-security-policy") ?? "";
    ok(csp.includes("script-src 'self'") && !csp.includes("unsafe-eval"), csp);
    ok(!/script-src[^;]*unsafe-inline/.test(csp), csp);
    const ok2 = await app.request("GET", "/login?next=%2Fsession%2Fabc");
    ok((await ok2.text()).includes('data-next="/session/abc"'));
    strictEqual((await app.request("GET", "/static/login.js")).status, 200);
    strictEqual((await app.request("GET", "/static/login.css")).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("a plain form post logs in with a redirect to the safe next path", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const form = (password: string, next: string) =>
      app.request("POST", "/api/auth/login", new URLSearchParams({ password, next }).toString(), {
        "content-type": "application/x-www-form-urlencoded",
      });
    const bad = await form("nope", "/x");
    strictEqual(bad.status, 303);
    strictEqual(bad.headers.get("location"), "/login?next=%2Fx&error=invalid");
    const good = await form(PASSWORD, "//evil.com/");
    strictEqual(good.status, 303);
    strictEqual(good.headers.get("location"), "/");
    ok(good.headers.get("set-cookie")?.startsWith("hermes_session="));
  } finally {
    await app.close();
  }
});

Deno.test("checkStartupSafety() refuses a non-loopback bind without any password", async () => {
  const base = { HOME: "/tmp", HERMES_CONFIG_PATH: "/nonexistent/config.yaml" };
  await rejects(
    () => checkStartupSafety(loadConfig({ ...base, HERMES_WEBUI_HOST: "0.0.0.0" })),
    ConfigError,
  );
  await checkStartupSafety(loadConfig({ ...base, HERMES_WEBUI_HOST: "127.0.0.1" }));
  await checkStartupSafety(loadConfig({ ...base, HERMES_WEBUI_HOST: "localhost" }));
  await checkStartupSafety(
    loadConfig({ ...base, HERMES_WEBUI_HOST: "0.0.0.0", HERMES_WEBUI_PASSWORD: "secret!" }),
  );
  // A password set through the settings counts too.
  const app = await createTestApp({ env: { HERMES_WEBUI_HOST: "0.0.0.0" } });
  try {
    await rejects(
      () => checkStartupSafety(app.ctx.config, app.ctx.db),
      /Refusing to listen on 0\.0\.0\.0/,
    );
    const hash = await hashPassword(PASSWORD);
    await app.ctx.db.run(
      sql`INSERT INTO settings (key, value) VALUES (${PASSWORD_HASH_SETTING}, ${hash})`,
    );
    await checkStartupSafety(app.ctx.config, app.ctx.db);
  } finally {
    await app.close();
  }
});
