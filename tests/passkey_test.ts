// Passkey routes (/api/auth/passkey*, /api/auth/passkeys) driven by a software authenticator
// with real keys: registration, sign-in with the same cookie a password login sets, and the
// refusals (auth off, not logged in, replayed/expired/foreign challenges, stale counters,
// hostile bodies).
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSoftAuthenticator } from "./fixtures/soft_authenticator.ts";

const PASSWORD = "correct horse battery staple";
const HOST = { host: "localhost:8787" };
const ORIGIN = "http://localhost:8787";

function testClock(start = 1_900_000_000) {
  let now = start;
  return { clock: () => now, advance: (s: number) => (now += s) };
}

async function passwordLogin(app: TestApp): Promise<string> {
  const res = await app.request("POST", "/api/auth/login", { password: PASSWORD }, HOST);
  strictEqual(res.status, 200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

type Json = Record<string, unknown>;

/** Register one passkey from a logged-in session; returns the authenticator. */
async function register(app: TestApp, cookie: string, name = "Laptop") {
  const auth = await createSoftAuthenticator();
  const opts = await app.call<Json>("POST", "/api/auth/passkey/register/options", {}, {
    ...HOST,
    cookie,
  });
  strictEqual(opts.status, 200, JSON.stringify(opts.body));
  const response = await auth.create(opts.body as never, ORIGIN);
  const done = await app.call<Json>("POST", "/api/auth/passkey/register", { name, response }, {
    ...HOST,
    cookie,
  });
  strictEqual(done.status, 200, JSON.stringify(done.body));
  return auth;
}

async function loginOptions(app: TestApp, headers: Record<string, string> = HOST) {
  const res = await app.call<{ challenge: string; rpId: string }>(
    "POST",
    "/api/auth/passkey/options",
    {},
    headers,
    { proof: false },
  );
  strictEqual(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

function passkeyLogin(app: TestApp, response: unknown, headers: Record<string, string> = HOST) {
  return app.request("POST", "/api/auth/passkey/login", { response }, headers, { proof: false });
}

Deno.test("passkey routes answer a clear 400 while auth is off", async () => {
  const app = await createTestApp();
  try {
    for (const path of ["/api/auth/passkey/options", "/api/auth/passkey/register/options"]) {
      const res = await app.call<Json>("POST", path, {}, HOST);
      strictEqual(res.status, 400, path);
      match(String(res.body.error), /set a password first/);
    }
    const status = await app.call<Json>("GET", "/api/auth/status");
    strictEqual(status.body.passkeys_enabled, false);
    strictEqual((await app.call<Json>("GET", "/api/auth/passkeys")).body.enabled, false);
  } finally {
    await app.close();
  }
});

Deno.test("passkey management routes refuse a request without a login (401)", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    strictEqual((await app.request("GET", "/api/auth/passkeys", undefined, HOST)).status, 401);
    for (const path of ["/api/auth/passkey/register/options", "/api/auth/passkey/register"]) {
      strictEqual((await app.request("POST", path, {}, HOST)).status, 401, path);
    }
    const del = await app.request("POST", "/api/auth/passkey/delete", { id: "x" }, HOST);
    strictEqual(del.status, 401);
    // No passkey yet: the login options say so.
    const opts = await app.call<Json>("POST", "/api/auth/passkey/options", {}, HOST, {
      proof: false,
    });
    strictEqual(opts.status, 400);
    match(String(opts.body.error), /No passkeys/);
  } finally {
    await app.close();
  }
});

Deno.test("a registered passkey signs in with the same session cookie a password login sets", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const cookie = await passwordLogin(app);
    const auth = await register(app, cookie, "Work laptop");
    const list = await app.call<{ passkeys: Json[] }>("GET", "/api/auth/passkeys", undefined, {
      ...HOST,
      cookie,
    });
    strictEqual(list.body.passkeys.length, 1);
    strictEqual(list.body.passkeys[0].name, "Work laptop");
    strictEqual(list.body.passkeys[0].last_used_at, null);
    ok(!("public_key" in list.body.passkeys[0]), "the public key stays on the server");
    strictEqual((await app.call<Json>("GET", "/api/auth/status")).body.passkeys_enabled, true);

    const opts = await loginOptions(app);
    strictEqual(opts.rpId, "localhost");
    const regOpts = await app.call<{ pubKeyCredParams: { alg: number }[]; rp: Json }>(
      "POST",
      "/api/auth/passkey/register/options",
      {},
      { ...HOST, cookie },
    );
    deepStrictEqual(regOpts.body.pubKeyCredParams.map((p) => p.alg), [-8, -7, -257]);
    strictEqual(regOpts.body.rp.id, "localhost");
    const assertion = await auth.get(opts, ORIGIN);
    const res = await passkeyLogin(app, assertion);
    strictEqual(res.status, 200, await res.clone().text());
    const setCookie = res.headers.get("set-cookie") ?? "";
    match(setCookie, /^hermes_session=[0-9a-f]{32}\.\d+\.[A-Za-z0-9_-]{43}; Path=\/;.*HttpOnly/);
    const newCookie = setCookie.split(";")[0];
    const status = await app.call<Json>("GET", "/api/auth/status", undefined, {
      cookie: newCookie,
    });
    strictEqual(status.body.logged_in, true);
    const after = await app.call<{ passkeys: Json[] }>("GET", "/api/auth/passkeys", undefined, {
      cookie: newCookie,
    });
    ok(typeof after.body.passkeys[0].last_used_at === "number", "last use is recorded");

    // The same assertion again: its challenge is spent.
    const replay = await passkeyLogin(app, assertion);
    strictEqual(replay.status, 401);
    strictEqual(replay.headers.get("set-cookie"), null);
  } finally {
    await app.close();
  }
});

Deno.test("passkey sign-in refuses a stale counter, no user verification, a foreign origin, an expired or misdirected challenge", async () => {
  const t = testClock();
  const app = await createTestApp({
    env: { HERMES_WEBUI_PASSWORD: PASSWORD, HERMES_WEBUI_ALLOWED_HOSTS: "console.test" },
    clock: t.clock,
  });
  try {
    const cookie = await passwordLogin(app);
    const auth = await register(app, cookie);
    strictEqual(
      (await passkeyLogin(app, await auth.get(await loginOptions(app), ORIGIN))).status,
      200,
    );

    await (async () => {
      // A cloned authenticator replaying an old counter (1 ≤ stored 1).
      const res = await passkeyLogin(
        app,
        await auth.get(await loginOptions(app), ORIGIN, { counter: 1 }),
      );
      strictEqual(res.status, 401);
      match(((await res.json()) as Json).error as string, /counter/i);
    })();

    // Present but not verified (a stolen, unlocked key used without its PIN or biometric).
    const unverified = await passkeyLogin(
      app,
      await auth.get(await loginOptions(app), ORIGIN, { noUserVerification: true }),
    );
    strictEqual(unverified.status, 401);
    match(((await unverified.json()) as Json).error as string, /user verification/i);
    const asked = await loginOptions(app);
    strictEqual((asked as unknown as { userVerification?: string }).userVerification, "required");

    // Signed for another origin (a phishing page relaying the challenge).
    const foreign = await passkeyLogin(
      app,
      await auth.get(await loginOptions(app), "http://evil.test"),
    );
    strictEqual(foreign.status, 401);

    // A challenge issued for console.test cannot be answered at localhost.
    const other = await loginOptions(app, { host: "console.test" });
    const misdirected = await passkeyLogin(app, await auth.get(other, ORIGIN));
    strictEqual(misdirected.status, 401);
    match(((await misdirected.json()) as Json).error as string, /another address/);

    // Challenges expire.
    const late = await loginOptions(app);
    t.advance(121);
    const expired = await passkeyLogin(app, await auth.get(late, ORIGIN));
    strictEqual(expired.status, 401);
    match(((await expired.json()) as Json).error as string, /expired or already used/);

    // A registration challenge cannot be spent as a login one.
    const regOpts = await app.call<{ challenge: string }>(
      "POST",
      "/api/auth/passkey/register/options",
      {},
      { ...HOST, cookie },
    );
    const crossKind = await passkeyLogin(
      app,
      await auth.get({ challenge: regOpts.body.challenge, rpId: "localhost" }, ORIGIN),
    );
    strictEqual(crossKind.status, 401);
  } finally {
    await app.close();
  }
});

Deno.test("passkey routes refuse hostile input with clear errors", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const cookie = await passwordLogin(app);
    const auth = await register(app, cookie);
    const opts = await loginOptions(app);
    const good = await auth.get(opts, ORIGIN);

    const bad = async (response: unknown) => {
      const res = await passkeyLogin(app, response);
      return { status: res.status, body: (await res.json()) as Json };
    };
    strictEqual((await bad("nope")).status, 400);
    strictEqual((await bad({ ...good, type: "password" })).status, 400);
    strictEqual((await bad({ ...good, id: "not base64url!" })).status, 400);
    const notJson = await bad({
      ...good,
      response: { ...good.response, clientDataJSON: "AAAA" },
    });
    strictEqual(notJson.status, 401);
    match(String(notJson.body.error), /clientDataJSON/);
    const unknown = await bad({ ...good, id: "AAAAAAAA", rawId: "AAAAAAAA" });
    strictEqual(unknown.status, 401, JSON.stringify(unknown.body));
    // Pre-auth bodies are capped at 8 KB.
    const huge = await app.request(
      "POST",
      "/api/auth/passkey/login",
      JSON.stringify({ response: { ...good, pad: "x".repeat(9000) } }),
      { ...HOST, "content-type": "application/json" },
      { proof: false },
    );
    strictEqual(huge.status, 413);
    // An IP address cannot be a WebAuthn RP ID.
    const ip = await app.call<Json>("POST", "/api/auth/passkey/options", {}, {
      host: "127.0.0.1:8787",
    }, { proof: false });
    strictEqual(ip.status, 400);
    match(String(ip.body.error), /host name/);
    // A foreign page cannot start or finish a sign-in.
    const cross = await app.request("POST", "/api/auth/passkey/options", {}, {
      ...HOST,
      origin: "http://evil.test",
    }, { proof: false });
    strictEqual(cross.status, 403);
    // A browser page registering without the session's CSRF token is refused.
    const noToken = await app.request("POST", "/api/auth/passkey/register/options", {}, {
      ...HOST,
      cookie,
      origin: ORIGIN,
    }, { proof: false });
    strictEqual(noToken.status, 403);
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/auth/passkey/delete removes a passkey; unknown ids are a 404", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const cookie = await passwordLogin(app);
    const auth = await register(app, cookie);
    const missing = await app.call<Json>("POST", "/api/auth/passkey/delete", { id: "zzz" }, {
      ...HOST,
      cookie,
    });
    strictEqual(missing.status, 404);
    const del = await app.call<Json>("POST", "/api/auth/passkey/delete", {
      id: auth.credentialId,
    }, { ...HOST, cookie });
    deepStrictEqual(del, { status: 200, body: { ok: true } });
    strictEqual((await app.call<Json>("GET", "/api/auth/status")).body.passkeys_enabled, false);
    const opts = await app.call<Json>("POST", "/api/auth/passkey/options", {}, HOST, {
      proof: false,
    });
    strictEqual(opts.status, 400);
  } finally {
    await app.close();
  }
});
