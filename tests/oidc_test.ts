// Sign-in through OpenID Connect (/api/auth/oidc/login, /api/auth/oidc/callback) against a
// REAL provider (oidc-provider on a loopback port, its dev login pages driven over HTTP): the
// allowlist by email and by group, refused users, tampered state, replayed callbacks, config
// errors and the SSRF guard on the issuer.
import { match, ok, strictEqual, throws } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";
import { signInAtProvider, startOidcProvider } from "./fixtures/oidc_provider.ts";
import { ConfigError, loadConfig } from "../lib/settings/config.ts";

const PASSWORD = "correct horse battery staple";
const HOST = { host: "localhost:8787" };
const CALLBACK = "http://localhost:8787/api/auth/oidc/callback";

const ACCOUNTS = {
  alice: { email: "Alice@Example.com" },
  mallory: { email: "mallory@example.com" },
  grace: { email: "grace@example.com", groups: ["console-admins"] },
};

async function setup(extraEnv: Record<string, string> = {}) {
  const idp = await startOidcProvider([CALLBACK], ACCOUNTS);
  const app = await createTestApp({
    env: {
      HERMES_WEBUI_PASSWORD: PASSWORD,
      HERMES_WEBUI_OIDC_ISSUER: idp.issuer,
      HERMES_WEBUI_OIDC_CLIENT_ID: idp.clientId,
      HERMES_WEBUI_OIDC_CLIENT_SECRET: idp.clientSecret,
      HERMES_WEBUI_OIDC_ALLOWED_EMAILS: "alice@example.com",
      HERMES_WEBUI_OIDC_ALLOWED_GROUPS: "console-admins",
      HERMES_WEBUI_OIDC_SCOPES: "openid email groups",
      HERMES_WEBUI_OIDC_PROVIDER_NAME: "Test IdP",
      ...extraEnv,
    },
  });
  return {
    idp,
    app,
    async close() {
      await app.close();
      await idp.close();
    },
  };
}

/**
 * Start at the console, sign in at the provider as `login`; returns the callback path and the
 * state cookie the console set in this "browser".
 */
async function throughProvider(
  app: TestApp,
  login: string,
  next = "/",
): Promise<{ path: string; cookie: string }> {
  const start = await app.request(
    "GET",
    `/api/auth/oidc/login?next=${encodeURIComponent(next)}`,
    undefined,
    HOST,
  );
  strictEqual(start.status, 302, await start.clone().text());
  const cookie = start.headers.getSetCookie().find((c) => c.startsWith("hermes_oidc_state="));
  ok(cookie, "the sign-in is bound to this browser by a cookie");
  match(cookie, /Path=\/api\/auth\/oidc\/;.*HttpOnly; SameSite=Lax/);
  const back = await signInAtProvider(start.headers.get("location")!, login);
  strictEqual(back.origin + back.pathname, CALLBACK);
  return { path: back.pathname + back.search, cookie: cookie.split(";")[0] };
}

function callback(app: TestApp, flow: { path: string; cookie: string }) {
  return app.request("GET", flow.path, undefined, { ...HOST, cookie: flow.cookie });
}

/** The login cookie a response sets, or null (a cleared state cookie is not a session). */
function sessionSet(res: Response): string | null {
  const c = res.headers.getSetCookie().find((c) => c.startsWith("hermes_session="));
  return c ? c.split(";")[0] : null;
}

Deno.test("OIDC sign-in: an allowlisted email gets the session cookie and lands on next", async () => {
  const t = await setup();
  try {
    const status = await t.app.call<Record<string, unknown>>("GET", "/api/auth/status");
    strictEqual(status.body.oidc_enabled, true);
    strictEqual(status.body.oidc_provider, "Test IdP");

    const start = await t.app.request("GET", "/api/auth/oidc/login", undefined, HOST);
    const auth = new URL(start.headers.get("location")!);
    strictEqual(auth.origin, t.idp.issuer);
    strictEqual(auth.searchParams.get("code_challenge_method"), "S256");
    ok(auth.searchParams.get("state") && auth.searchParams.get("nonce"));
    strictEqual(auth.searchParams.get("redirect_uri"), CALLBACK);

    const login = await (await t.app.request("GET", "/login", undefined, HOST)).text();
    match(login, /href="\/api\/auth\/oidc\/login\?next=%2F"[^>]*>Sign in with Test IdP</);

    const flow = await throughProvider(t.app, "alice", "/session/abc?x=1");
    const res = await callback(t.app, flow);
    strictEqual(res.status, 302, await res.clone().text());
    strictEqual(res.headers.get("location"), "/session/abc?x=1");
    const cookie = sessionSet(res)!;
    match(cookie, /^hermes_session=[0-9a-f]{32}\./);
    ok(res.headers.getSetCookie().some((c) => /^hermes_oidc_state=;.*Max-Age=0/.test(c)));
    const me = await t.app.call<Record<string, unknown>>("GET", "/api/auth/status", undefined, {
      cookie,
    });
    strictEqual(me.body.logged_in, true);

    // The same callback again (a replay, or a copied URL): its state is spent.
    const replay = await callback(t.app, flow);
    strictEqual(replay.status, 403);
    strictEqual(sessionSet(replay), null);
    match(await replay.text(), /expired or was already used/);
  } finally {
    await t.close();
  }
});

Deno.test("OIDC sign-in: a group on the allowlist is enough", async () => {
  const t = await setup();
  try {
    const res = await callback(t.app, await throughProvider(t.app, "grace"));
    strictEqual(res.status, 302, await res.clone().text());
    ok(sessionSet(res));
  } finally {
    await t.close();
  }
});

Deno.test("OIDC sign-in refuses an account off the allowlist with a clear page and no session", async () => {
  const t = await setup();
  try {
    const res = await callback(t.app, await throughProvider(t.app, "mallory"));
    strictEqual(res.status, 403);
    strictEqual(sessionSet(res), null);
    match(res.headers.get("content-type") ?? "", /^text\/html/);
    const html = await res.text();
    match(html, /mallory@example\.com is not allowed to use this console/);
    ok(!html.includes("<script"), "the refusal page runs no script");
    strictEqual(
      (await t.app.call<Record<string, unknown>>("GET", "/api/auth/status")).body.logged_in,
      false,
    );
  } finally {
    await t.close();
  }
});

Deno.test("OIDC callback refuses a tampered or missing state, and one started in another browser", async () => {
  const t = await setup();
  try {
    const flow = await throughProvider(t.app, "alice");
    const url = new URL(flow.path, "http://x");
    const state = url.searchParams.get("state")!;
    const forged = state.slice(0, -2) + (state.endsWith("AA") ? "BB" : "AA");
    url.searchParams.set("state", forged);
    const path = url.pathname + url.search;
    for (const cookie of [flow.cookie, `hermes_oidc_state=${forged}`]) {
      const tampered = await callback(t.app, { path, cookie });
      strictEqual(tampered.status, 403, cookie);
      strictEqual(sessionSet(tampered), null);
    }
    url.searchParams.delete("state");
    const missing = await callback(t.app, { path: url.pathname + url.search, cookie: "" });
    strictEqual(missing.status, 403);
    strictEqual(sessionSet(missing), null);

    // A callback URL handed to another browser (login CSRF): no state cookie there, refused;
    // the browser that started the sign-in can still finish it.
    const elsewhere = await callback(t.app, { path: flow.path, cookie: "" });
    strictEqual(elsewhere.status, 403);
    strictEqual(sessionSet(elsewhere), null);
    match(await elsewhere.text(), /not started in this browser/);
    strictEqual((await callback(t.app, flow)).status, 302);

    // A code from one sign-in under the state of another: PKCE and the code binding refuse it.
    const first = await throughProvider(t.app, "alice");
    const second = await throughProvider(t.app, "alice");
    const swapped = new URL(second.path, "http://x");
    swapped.searchParams.set("code", new URL(first.path, "http://x").searchParams.get("code")!);
    const res = await callback(t.app, {
      path: swapped.pathname + swapped.search,
      cookie: second.cookie,
    });
    strictEqual(res.status, 403);
    strictEqual(sessionSet(res), null);

    // Hostile parameters: a provider error is shown as text, never markup.
    const third = await throughProvider(t.app, "alice");
    const errUrl = new URL(third.path, "http://x");
    errUrl.searchParams.delete("code");
    errUrl.searchParams.set("error", "access_denied");
    errUrl.searchParams.set("error_description", "<script>x</script>");
    const error = await callback(t.app, {
      path: errUrl.pathname + errUrl.search,
      cookie: third.cookie,
    });
    strictEqual(error.status, 403);
    const html = await error.text();
    ok(!html.includes("<script>x"), "the description is escaped");
    match(html, /&#60;script&#62;x/);
  } finally {
    await t.close();
  }
});

Deno.test("OIDC routes answer 400 while auth is off or OIDC is not configured", async () => {
  const idp = await startOidcProvider([CALLBACK], ACCOUNTS);
  const off = await createTestApp({
    env: {
      HERMES_WEBUI_OIDC_ISSUER: idp.issuer,
      HERMES_WEBUI_OIDC_CLIENT_ID: idp.clientId,
      HERMES_WEBUI_OIDC_ALLOWED_EMAILS: "alice@example.com",
    },
  });
  const none = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const a = await off.call<Record<string, unknown>>(
      "GET",
      "/api/auth/oidc/login",
      undefined,
      HOST,
    );
    strictEqual(a.status, 400);
    match(String(a.body.error), /set a password first/);
    strictEqual(
      (await off.call<Record<string, unknown>>("GET", "/api/auth/status")).body
        .oidc_enabled,
      false,
    );
    const b = await none.call<Record<string, unknown>>(
      "GET",
      "/api/auth/oidc/login",
      undefined,
      HOST,
    );
    strictEqual(b.status, 400);
    match(String(b.body.error), /not configured/);
    strictEqual(
      (await none.request("GET", "/api/auth/oidc/callback?state=x", undefined, HOST))
        .status,
      400,
    );
  } finally {
    await off.close();
    await none.close();
    await idp.close();
  }
});

Deno.test("OIDC issuer fetches go through the SSRF guard: a metadata address is refused", async () => {
  const app = await createTestApp({
    env: {
      HERMES_WEBUI_PASSWORD: PASSWORD,
      HERMES_WEBUI_OIDC_ISSUER: "http://169.254.169.254/latest",
      HERMES_WEBUI_OIDC_CLIENT_ID: "x",
      HERMES_WEBUI_OIDC_ALLOWED_EMAILS: "alice@example.com",
    },
  });
  try {
    const res = await app.request("GET", "/api/auth/oidc/login", undefined, HOST);
    strictEqual(res.status, 502);
    strictEqual(res.headers.get("set-cookie"), null);
    match(await res.text(), /Cannot reach the sign-in provider/);
  } finally {
    await app.close();
  }
});

Deno.test("loadConfig() reads auth.oidc from config.yaml and HERMES_WEBUI_OIDC_* over it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/config.yaml`;
    await Deno.writeTextFile(
      path,
      "auth:\n  oidc:\n    issuer: https://id.example.com\n    client_id: console\n" +
        "    client_secret: ${OIDC_SECRET}\n    allowed_emails: [Bob@Example.com]\n",
    );
    const env = { HOME: dir, HERMES_CONFIG_PATH: path, OIDC_SECRET: "s3cret" };
    const cfg = loadConfig(env).oidc!;
    strictEqual(cfg.issuer, "https://id.example.com");
    strictEqual(cfg.clientSecret, "s3cret");
    strictEqual(cfg.allowedEmails[0], "bob@example.com");
    strictEqual(cfg.scopes.join(" "), "openid email profile");
    strictEqual(cfg.providerName, "id.example.com");
    const over = loadConfig({ ...env, HERMES_WEBUI_OIDC_CLIENT_ID: "other" }).oidc!;
    strictEqual(over.clientId, "other");
    await Deno.writeTextFile(
      path,
      "auth:\n  oidc:\n    issuer: https://id.example.com\n    client_id: console\n",
    );
    throws(
      () => loadConfig(env),
      (e) => e instanceof ConfigError && /allowed_emails/.test(e.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
