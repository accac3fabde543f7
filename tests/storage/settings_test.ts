// GET/POST /api/settings: partial merges, validation naming the field, masked provider keys
// that survive a round trip, and a password that is hashed, never returned, and turns auth on.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers.ts";
import type { PublicSettings } from "../../lib/settings/settings.ts";
import { storedProviderKeys } from "../../lib/settings/settings.ts";
import { storedPasswordHash } from "../../lib/security/auth.ts";
import { resolveProviders } from "../../lib/providers/provider_config.ts";

async function withApp(
  fn: (app: TestApp) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
): Promise<void> {
  const app = await createTestApp(opts);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

const post = (app: TestApp, body: unknown, headers?: Record<string, string>) =>
  app.call<PublicSettings & { error?: string; field?: string }>(
    "POST",
    "/api/settings",
    body,
    headers,
  );

Deno.test("GET /api/settings returns the defaults without secrets", async () => {
  await withApp(async (app) => {
    const { status, body } = await app.call<PublicSettings>("GET", "/api/settings");
    strictEqual(status, 200);
    strictEqual(body.send_key, "enter");
    strictEqual(body.theme, "system");
    strictEqual(body.show_thinking, true);
    strictEqual(body.approval_timeout_seconds, 300);
    strictEqual(body.auth_enabled, false);
    strictEqual(body.password_set, false);
    strictEqual(body.default_model, "gpt-4o", "from config model.default");
    strictEqual(body.default_workspace, app.workspace);
    deepStrictEqual(body.provider_keys, { openai: "", anthropic: "", openrouter: "" });
    ok(!("password_hash" in body) && !("password" in body));
  }, { configYaml: "model:\n  default: gpt-4o\n" });
});

Deno.test("POST /api/settings merges a partial update and keeps the other fields", async () => {
  await withApp(async (app) => {
    strictEqual((await post(app, { theme: "dark" })).body.theme, "dark");
    const second = await post(app, { send_key: "ctrl+enter", approval_timeout_seconds: 60 });
    strictEqual(second.status, 200);
    strictEqual(second.body.theme, "dark", "an earlier field is kept");
    strictEqual(second.body.send_key, "ctrl+enter");
    strictEqual(second.body.approval_timeout_seconds, 60);
    const third = await post(app, { show_thinking: false });
    const { body } = await app.call<PublicSettings>("GET", "/api/settings");
    const { ignored, ...stored } = third.body as PublicSettings & { ignored: string[] };
    deepStrictEqual(ignored, [], "POST answers the stored settings plus what it ignored");
    deepStrictEqual(body, stored);
    strictEqual(body.show_thinking, false);
    strictEqual(body.theme, "dark");
    strictEqual(body.send_key, "ctrl+enter");
  });
});

Deno.test("POST /api/settings refuses a bad password, key or workspace with a 400 naming the field", async () => {
  await withApp(async (app) => {
    const cases: Array<[unknown, RegExp]> = [
      [{ password: "short" }, /"password".*at least 8/],
      [{ provider_keys: { openai: "sk has spaces" } }, /"provider_keys\.openai"/],
      [{ provider_keys: { mistral: "x" } }, /mistral/],
      [{ default_workspace: "/definitely/not/here" }, /"default_workspace"/],
    ];
    for (const [body, pattern] of cases) {
      const res = await post(app, body);
      strictEqual(res.status, 400, JSON.stringify(body));
      match(res.body.error ?? "", pattern, JSON.stringify(res.body));
    }
    const invalidJson = await app.call("POST", "/api/settings", "{theme:", {
      "content-type": "application/json",
    });
    strictEqual(invalidJson.status, 400);
    const { body } = await app.call<PublicSettings>("GET", "/api/settings");
    strictEqual(body.theme, "system", "a refused update changed nothing");
  });
});

Deno.test("POST /api/settings ignores invalid preference values and unknown keys, naming them", async () => {
  await withApp(async (app) => {
    const res = await app.call<PublicSettings & { ignored: string[] }>("POST", "/api/settings", {
      theme: "purple",
      send_key: "alt+enter",
      show_thinking: "yes",
      approval_timeout_seconds: 2.5,
      colour: "red",
      sidebar_density: "detailed",
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    deepStrictEqual(
      [...res.body.ignored].sort(),
      ["approval_timeout_seconds", "colour", "send_key", "show_thinking", "theme"],
    );
    strictEqual(res.body.theme, "system");
    strictEqual(res.body.send_key, "enter");
    strictEqual(res.body.approval_timeout_seconds, 300);
    strictEqual(res.body.sidebar_density, "detailed", "the valid key in the same body is kept");
    ok(!("colour" in res.body));
  });
});

Deno.test("POST /api/settings masks provider keys and a masked echo keeps the stored key", async () => {
  const key = "sk-proj-abcdefghijklmnop1234";
  await withApp(async (app) => {
    let invalidations = 0;
    app.ctx.onProviderConfigChange.push(() => void invalidations++);

    const set = await post(app, { provider_keys: { openai: key } });
    strictEqual(set.status, 200);
    strictEqual(set.body.provider_keys.openai, "sk-proj-…1234");
    ok(!JSON.stringify(set.body).includes(key), "the key is never returned");
    strictEqual(invalidations, 1, "a new key invalidates provider caches");
    strictEqual(app.ctx.config.env.OPENAI_API_KEY, key, "a stored key acts as OPENAI_API_KEY");
    strictEqual(
      resolveProviders(app.ctx.config).endpoints.find((e) => e.id === "openai")?.apiKey,
      key,
    );

    // The settings form sends back what it was shown.
    const echo = await post(app, {
      provider_keys: { openai: set.body.provider_keys.openai },
      theme: "light",
    });
    strictEqual(echo.status, 200);
    strictEqual((await storedProviderKeys(app.ctx.db)).openai, key, "the masked echo kept the key");
    strictEqual(echo.body.provider_keys.openai, "sk-proj-…1234");
    strictEqual(invalidations, 1, "an unchanged key invalidates nothing");

    const cleared = await post(app, { provider_keys: { openai: null } });
    strictEqual(cleared.body.provider_keys.openai, "");
    strictEqual((await storedProviderKeys(app.ctx.db)).openai, undefined);
    strictEqual(
      app.ctx.config.env.OPENAI_API_KEY,
      "sk-env-0000000000000000",
      "the exported key is back",
    );
    strictEqual(cleared.body.provider_keys_from_env.openai, true);
    strictEqual(invalidations, 2);
    ok(!app.logs.some((l) => l.includes(key)), "the key never reaches the log");
  }, { env: { OPENAI_API_KEY: "sk-env-0000000000000000" } });
});

Deno.test("POST /api/settings stores a password as a hash, never returns it, and turns auth on", async () => {
  const password = "correct horse battery";
  await withApp(async (app) => {
    const set = await post(app, { password });
    strictEqual(set.status, 200);
    strictEqual(set.body.auth_enabled, true);
    strictEqual(set.body.password_set, true);
    const raw = JSON.stringify(set.body);
    ok(!raw.includes(password) && !raw.includes("pbkdf2"), "neither password nor hash returned");
    const hash = await storedPasswordHash(app.ctx.db);
    ok(hash?.startsWith("pbkdf2-sha256$") && !hash.includes(password));
    const anonymous = await app.call("GET", "/api/settings");
    strictEqual(anonymous.status, 401, "without the login cookie the API now refuses");

    // The response carried a fresh login cookie for the person who set the password.
    const again = await app.request("POST", "/api/settings", { password: "another long one" });
    strictEqual(again.status, 401, "changing it requires being logged in");
    await again.body?.cancel();
    const login = await app.request("POST", "/api/auth/login", { password });
    strictEqual(login.status, 200);
    await login.body?.cancel();
    const sessionCookie = login.headers.get("set-cookie")!.split(";")[0];
    const read = await app.call<PublicSettings>("GET", "/api/settings", undefined, {
      cookie: sessionCookie,
    });
    strictEqual(read.status, 200);
    ok(!JSON.stringify(read.body).includes(password));

    const cleared = await post(app, { clear_password: true }, { cookie: sessionCookie });
    strictEqual(cleared.status, 200);
    strictEqual(cleared.body.auth_enabled, false);
    strictEqual(await storedPasswordHash(app.ctx.db), null);
    strictEqual((await app.call("GET", "/api/settings")).status, 200, "auth is off again");
  });
});

Deno.test("POST /api/settings returns a login cookie with a new password", async () => {
  await withApp(async (app) => {
    const res = await app.request("POST", "/api/settings", { password: "a fine password" });
    strictEqual(res.status, 200);
    await res.body?.cancel();
    const cookie = res.headers.get("set-cookie")?.split(";")[0] ?? "";
    match(cookie, /^hermes_session=/);
    strictEqual((await app.call("GET", "/api/settings", undefined, { cookie })).status, 200);
    const cleared = await app.request("POST", "/api/settings", { password: null }, { cookie });
    strictEqual(cleared.status, 200);
    await cleared.body?.cancel();
    match(cleared.headers.get("set-cookie") ?? "", /Max-Age=0/);
  });
});

Deno.test("POST /api/settings refuses a password while HERMES_WEBUI_PASSWORD is set", async () => {
  await withApp(async (app) => {
    const login = await app.request("POST", "/api/auth/login", { password: "env password 123" });
    await login.body?.cancel();
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const res = await post(app, { password: "another password" }, { cookie });
    strictEqual(res.status, 409);
    match(res.body.error ?? "", /HERMES_WEBUI_PASSWORD/);
    const read = await app.call<PublicSettings>("GET", "/api/settings", undefined, { cookie });
    strictEqual(read.body.password_from_env, true);
    strictEqual(read.body.auth_enabled, true);
  }, { env: { HERMES_WEBUI_PASSWORD: "env password 123" } });
});

Deno.test("POST /api/settings default_workspace and POST /api/default-model apply to new sessions", async () => {
  await withApp(async (app) => {
    const dir = join(app.workspace, "project");
    await Deno.mkdir(dir);
    const res = await post(app, { default_workspace: dir });
    const model = await app.call("POST", "/api/default-model", { model: "gpt-4.1" });
    strictEqual(model.status, 200, JSON.stringify(model.body));
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual(res.body.default_workspace, await Deno.realPath(dir));
    strictEqual(
      (await app.call<PublicSettings>("GET", "/api/settings")).body.default_model,
      "gpt-4.1",
    );
    const created = await app.call<{ session: { workspace: string; model: string } }>(
      "POST",
      "/api/session/new",
      {},
    );
    strictEqual(created.status, 200, JSON.stringify(created.body));
    strictEqual(created.body.session.workspace, await Deno.realPath(dir));
    strictEqual(created.body.session.model, "gpt-4.1");

    const reset = await post(app, { default_workspace: null });
    strictEqual(
      reset.body.default_workspace,
      app.workspace,
      "null restores the environment default",
    );
    strictEqual(reset.body.default_model, "gpt-4.1", "the config file now holds the default");
  }, { configYaml: "model:\n  default: gpt-4o\n" });
});
