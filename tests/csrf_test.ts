import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";
import { checkHost } from "../lib/security/request_guard.ts";
import { ForbiddenError } from "../lib/errors.ts";
import { throws } from "node:assert/strict";

const PASSWORD = "correct horse battery staple";

async function loggedIn(app: TestApp): Promise<{ cookie: string; token: string }> {
  const res = await app.request("POST", "/api/auth/login", { password: PASSWORD });
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  const status = await app.call("GET", "/api/auth/status", undefined, { cookie });
  return { cookie, token: String(status.body.csrf_token) };
}

Deno.test("a cross-site POST is refused with 403 before reaching the route", async () => {
  const app = await createTestApp();
  try {
    const attempts: Array<Record<string, string>> = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:3000" },
      { origin: "http://evil.example" },
      { origin: "null" },
      { origin: "http://127.0.0.1:8788" },
      { referer: "http://evil.example/page" },
      { origin: "http://evil.example", "sec-fetch-site": "same-origin" },
    ];
    for (const headers of attempts) {
      for (const path of ["/api/upload", "/api/auth/login", "/api/session/new", "/api/nope"]) {
        const res = await app.call("POST", path, { password: "x" }, headers);
        strictEqual(res.status, 403, `${path} ${JSON.stringify(headers)}`);
        ok(/Cross-(site|origin) request refused/.test(String(res.body.error)));
      }
    }
    // Same-origin browser requests and header-less clients (curl) pass the check.
    const same = await app.call("POST", "/api/upload", {}, {
      origin: "http://127.0.0.1:8787",
      "sec-fetch-site": "same-origin",
    });
    strictEqual(same.status, 400);
    strictEqual((await app.call("POST", "/api/upload", {})).status, 400);
    strictEqual(
      (await app.call("POST", "/api/upload", {}, { referer: "http://127.0.0.1:8787/" })).status,
      400,
    );
  } finally {
    await app.close();
  }
});

Deno.test("state-changing GETs and streams get the same-origin check; the API refuses cross-site loads", async () => {
  const app = await createTestApp();
  try {
    for (
      const path of [
        "/api/chat/cancel",
        "/api/chat/stream",
        "/api/approval/inject_test",
        "/api/approval/stream",
      ]
    ) {
      const foreign = await app.call("GET", `${path}?stream_id=${"0".repeat(32)}`, undefined, {
        origin: "http://evil.example",
      });
      strictEqual(foreign.status, 403, path);
      const viaReferer = await app.call("GET", `${path}?stream_id=${"0".repeat(32)}`, undefined, {
        referer: "http://evil.example/",
      });
      strictEqual(viaReferer.status, 403, path);
    }
    // Any API GET from another site (an <img>, a link, a script tag) is refused.
    const img = await app.call("GET", "/api/list?session_id=000000000000", undefined, {
      "sec-fetch-site": "cross-site",
    });
    strictEqual(img.status, 403);
    // Pages can still be reached from a link on another site.
    const page = await app.request("GET", "/", undefined, { "sec-fetch-site": "cross-site" });
    strictEqual(page.status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("with auth on, browser writes need the session's X-Hermes-CSRF-Token", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const { cookie, token } = await loggedIn(app);
    const browser = { cookie, origin: "http://127.0.0.1:8787", "sec-fetch-site": "same-origin" };
    const missing = await app.call("POST", "/api/upload", {}, browser);
    strictEqual(missing.status, 403);
    deepStrictEqual(missing.body, { error: "Missing or invalid X-Hermes-CSRF-Token header" });
    const wrong = await app.call("POST", "/api/upload", {}, {
      ...browser,
      "x-hermes-csrf-token": token.slice(0, -2) + "AA",
    });
    strictEqual(wrong.status, 403);
    const right = await app.call("POST", "/api/upload", {}, {
      ...browser,
      "x-hermes-csrf-token": token,
    });
    strictEqual(right.status, 400, "the token lets the request reach the route");
    // The token is bound to the login session: another session's token does not work.
    const other = await loggedIn(app);
    ok(other.token !== token);
    strictEqual(
      (await app.call("POST", "/api/upload", {}, {
        ...browser,
        "x-hermes-csrf-token": other.token,
      }))
        .status,
      403,
    );
    // Scripts (no Origin / Sec-Fetch-Site) authenticate with the cookie alone.
    strictEqual((await app.call("POST", "/api/upload", {}, { cookie })).status, 400);
    // Logging out needs no token (it only ends the session) but still the Origin check.
    strictEqual(
      (await app.call("POST", "/api/auth/logout", undefined, {
        cookie,
        origin: "http://evil.example",
      }))
        .status,
      403,
    );
    strictEqual((await app.call("POST", "/api/auth/logout", undefined, browser)).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("a rebinding Host header is refused; loopback, the bound host and allowed hosts pass", async () => {
  const app = await createTestApp({
    env: { HERMES_WEBUI_ALLOWED_HOSTS: "console.example.com, box.lan:9000" },
  });
  try {
    const status = async (host: string, path = "/health") =>
      (await app.request("GET", path, undefined, { host })).status;
    for (
      const host of [
        "evil.example",
        "evil.example:8787",
        "127.0.0.1.evil.example",
        "localhost.evil.example",
        "box.lan",
        "box.lan:9001",
        "0.0.0.0:8787",
        "192.168.1.10:8787",
        "",
      ]
    ) {
      strictEqual(await status(host), 403, `Host: ${host}`);
      strictEqual(await status(host, "/"), 403, `Host: ${host} (page)`);
      strictEqual(await status(host, "/api/list"), 403, `Host: ${host} (api)`);
    }
    const refused = await app.call("GET", "/health", undefined, { host: "evil.example" });
    ok(/Host "evil\.example" is not allowed/.test(String(refused.body.error)));
    ok(refused.body.status === undefined, "no health data to a rebinding page");
    for (
      const host of [
        "127.0.0.1:8787",
        "localhost:8787",
        "LOCALHOST",
        "[::1]:8787",
        "127.0.0.2",
        "app.localhost:8787",
        "console.example.com",
        "console.example.com:443",
        "box.lan:9000",
        "localhost.",
      ]
    ) {
      strictEqual(await status(host), 200, `Host: ${host}`);
    }
  } finally {
    await app.close();
  }
});

Deno.test("behind a proxy that rewrites Host, an Origin that is an allowed host is ours", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_ALLOWED_HOSTS: "console.example.com" } });
  try {
    const post = (origin: string) =>
      app.call("POST", "/api/upload", {}, { origin, host: "127.0.0.1:8787" });
    strictEqual((await post("https://console.example.com")).status, 400);
    strictEqual((await post("https://evil.example")).status, 403);
    strictEqual((await post("https://console.example.com.evil.example")).status, 403);
  } finally {
    await app.close();
  }
});

Deno.test("checkHost() accepts IP literals only when bound to a wildcard address", () => {
  const req = (host: string) => new Request("http://x/", { headers: { host } });
  const wildcard = { host: "0.0.0.0", allowedHosts: [] };
  checkHost(req("192.168.1.10:8787"), wildcard);
  checkHost(req("[fe80::1]:8787"), { host: "::", allowedHosts: [] });
  throws(() => checkHost(req("my-laptop.lan:8787"), wildcard), ForbiddenError);
  const specific = { host: "192.168.1.10", allowedHosts: [] };
  checkHost(req("192.168.1.10:8787"), specific);
  throws(() => checkHost(req("192.168.1.11:8787"), specific), ForbiddenError);
  throws(() => checkHost(req("999.1.1.1"), wildcard), ForbiddenError);
});

Deno.test("pages carry a strict CSP and every response the security headers", async () => {
  const app = await createTestApp();
  try {
    const page = await app.request("GET", "/");
    const csp = page.headers.get("content-security-policy") ?? "";
    ok(/script-src 'self'(;|$)/.test(csp), csp);
    ok(!csp.includes("unsafe-eval"), csp);
    ok(csp.includes("frame-ancestors 'none'") && csp.includes("object-src 'none'"), csp);
    for (
      const res of [
        page,
        await app.request("GET", "/api/nope"),
        await app.request("POST", "/api/upload", {}, { origin: "http://evil.example" }),
      ]
    ) {
      strictEqual(res.headers.get("x-content-type-options"), "nosniff");
      strictEqual(res.headers.get("x-frame-options"), "DENY");
      strictEqual(res.headers.get("referrer-policy"), "same-origin");
      await res.body?.cancel();
    }
  } finally {
    await app.close();
  }
});

Deno.test("chat starts and uploads are rate limited per client", async () => {
  let now = 1_800_000_000;
  const app = await createTestApp({ clock: () => now });
  try {
    const limits = app.ctx.security.limits;
    for (let i = 0; i < limits.upload.limit; i++) {
      strictEqual((await app.call("POST", "/api/upload", {})).status, 400);
    }
    const limited = await app.call("POST", "/api/upload", {});
    strictEqual(limited.status, 429);
    ok(/Too many uploads/.test(String(limited.body.error)));
    for (let i = 0; i < limits.chatStart.limit; i++) {
      strictEqual((await limits.chatStart.hit("local")).ok, true);
    }
    strictEqual((await app.call("POST", "/api/chat/start", {})).status, 429);
    now += 61;
    strictEqual((await app.call("POST", "/api/upload", {})).status, 400);
  } finally {
    await app.close();
  }
});
