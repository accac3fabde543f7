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

/** Start at the console, sign in at the provider as `login`; returns the callback path. */
async function throughProvider(app: TestApp, login: string, next = "/"): Promise<string> {
  const start = await app.request(
    "GET",
    `/api/auth/oidc/login?next=${encodeURIComponent(next)}`,
    undefined,
    HOST,
  );
  strictEqual(start.status, 302, await start.clone().text());
  const back = await signInAtProvider(start.headers.get("location")!, login);
  strictEqual(back.origin + back.pathname, CALLBACK);
  return back.pathname + back.search;
}

function callback(app: TestApp, path: string) {
  return app.request("GET", path, undefined, HOST);
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

    const path = await throughProvider(t.app, "alice", "/session/abc?x=1");
    const res = await callback(t.app, path);
    strictEqual(res.status, 302, await res.clone().text());
    strictEqual(res.headers.get("location"), "/session/abc?x=1");
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    match(cookie, /^hermes_session=[0-9a-f]{32}\./);
    const me = await t.app.call<Record<string, unknown>>("GET", "/api/auth/status", undefined, {
      cookie,
    });
    strictEqual(me.body.logged_in, true);

    // The same callback again (a replay, or a copied URL): its state is spent.
    const replay = await callback(t.app, path);
    strictEqual(replay.status, 403);
    strictEqual(replay.headers.get("set-cookie"), null);
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
    ok(res.headers.get("set-cookie")?.startsWith("hermes_session="));
  } finally {
    await t.close();
  }
});

Deno.test("OIDC sign-in refuses an account off the allowlist with a clear page and no session", async () => {
  const t = await setup();
  try {
    const res = await callback(t.app, await throughProvider(t.app, "mallory"));
    strictEqual(res.status, 403);
    strictEqual(res.headers.get("set-cookie"), null);
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

Deno.test("OIDC callback refuses a tampered or missing state", async () => {
  const t = await setup();
  try {
    const path = await throughProvider(t.app, "alice");
    const url = new URL(path, "http://x");
    const state = url.searchParams.get("state")!;
    url.searchParams.set("state", state.slice(0, -2) + (state.endsWith("AA") ? "BB" : "AA"));
    const tampered = await callback(t.app, url.pathname + url.search);
    strictEqual(tampered.status, 403);
    strictEqual(tampered.headers.get("set-cookie"), null);
    url.searchParams.delete("state");
    const missing = await callback(t.app, url.pathname + url.search);
    strictEqual(missing.status, 403);
    strictEqual(missing.headers.get("set-cookie"), null);
    // A code from one sign-in under the state of another: PKCE and the code binding refuse it.
    const other = new URL(await throughProvider(t.app, "alice"), "http://x");
    other.searchParams.set("code", url.searchParams.get("code")!);
    const swapped = await callback(t.app, other.pathname + other.search);
    strictEqual(swapped.status, 403);
    strictEqual(swapped.headers.get("set-cookie"), null);
    // Hostile parameters: a provider error is shown as text, never markup.
    const error = await callback(
      t.app,
      `/api/auth/oidc/callback?state=${
        new URL(await throughProvider(t.app, "alice"), "http://x")
          .searchParams.get("state")
      }&error=access_denied&error_description=%3Cscript%3Ex%3C/script%3E`,
    );
    strictEqual(error.status, 403);
    const html = await error.text();
    ok(!html.includes("<script>x"), "the description is escaped");
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
