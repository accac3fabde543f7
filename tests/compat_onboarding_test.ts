// The original's onboarding contract: GET /api/onboarding/status's shape (completed, system
// with chat_ready and setup_state, setup catalog, paths), POST /api/onboarding/setup (config
// and `.env`, confirm_overwrite, custom without base_url, keys with newlines), POST
// /api/onboarding/complete with its bare body, and the probe's structured outcome codes.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { SETUP_STATES } from "../lib/settings/onboarding_compat.ts";

function closedPort(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

async function withApp(
  fn: (app: TestApp) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
): Promise<void> {
  const nowhere = closedPort();
  const app = await createTestApp({
    ...opts,
    env: {
      OLLAMA_HOST: nowhere,
      LMSTUDIO_BASE_URL: `${nowhere}/v1`,
      HERMES_WEBUI_SKIP_ONBOARDING: "",
      ...opts.env,
    },
  });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

type Status = {
  completed: boolean;
  settings: Record<string, unknown>;
  system: Record<string, unknown> & { setup_state: string; chat_ready: boolean };
  setup: { providers: Array<{ id: string; env_var: string }>; categories: unknown[] };
  workspaces: { items: unknown[]; last: string };
  needed: boolean;
};
const status = async (app: TestApp) =>
  (await app.call<Status>("GET", "/api/onboarding/status")).body;
const envFile = (app: TestApp) => join(app.ctx.config.configPath, "..", ".env");

Deno.test("GET /api/onboarding/status has the original's shape", async () => {
  await withApp(async (app) => {
    const s = await status(app);
    strictEqual(s.completed, false);
    strictEqual(s.system.chat_ready, false);
    strictEqual(s.system.setup_state, "needs_provider");
    ok(SETUP_STATES.includes(s.system.setup_state as typeof SETUP_STATES[number]));
    for (
      const k of [
        "provider_configured",
        "provider_ready",
        "provider_note",
        "current_provider",
        "current_model",
        "config_path",
        "config_exists",
        "config_error",
        "env_path",
        "hermes_found",
        "imports_ok",
      ]
    ) ok(k in s.system, k);
    strictEqual(s.system.config_path, app.ctx.config.configPath);
    strictEqual(s.system.env_path, envFile(app));
    strictEqual(s.settings.bot_name, "Hermes");
    strictEqual(s.settings.password_enabled, false);
    const ids = s.setup.providers.map((p) => p.id);
    for (const id of ["openrouter", "openai", "anthropic", "custom", "ollama", "lmstudio"]) {
      ok(ids.includes(id), id);
    }
    strictEqual(
      s.setup.providers.find((p) => p.id === "openrouter")!.env_var,
      "OPENROUTER_API_KEY",
    );
    strictEqual(s.workspaces.last, app.workspace);
    strictEqual(s.needed, true, "the console wizard's fields stay");
  });
});

Deno.test("GET /api/onboarding/status detects an incomplete saved provider", async () => {
  await withApp(async (app) => {
    const s = await status(app);
    strictEqual(s.system.setup_state, "provider_incomplete");
    strictEqual(s.system.provider_configured, true);
    strictEqual(s.system.provider_ready, false);
    strictEqual(s.system.current_provider, "openrouter");
    strictEqual(s.completed, false);
  }, { configYaml: "model:\n  provider: openrouter\n  default: some/model\n" });
});

Deno.test("POST /api/onboarding/setup writes config.yaml and the .env key for openrouter, openai, anthropic", async () => {
  for (
    const [provider, envVar] of [
      ["openrouter", "OPENROUTER_API_KEY"],
      ["openai", "OPENAI_API_KEY"],
      ["anthropic", "ANTHROPIC_API_KEY"],
    ]
  ) {
    await withApp(async (app) => {
      const key = `sk-${provider}-abcdefghijklmnop`;
      const res = await app.call<Status & { error?: string }>("POST", "/api/onboarding/setup", {
        provider,
        model: "some-model",
        api_key: key,
      });
      strictEqual(res.status, 200, JSON.stringify(res.body));
      strictEqual(res.body.system.setup_state, "ready", provider);
      strictEqual(res.body.system.chat_ready, true);
      const yaml = await Deno.readTextFile(app.ctx.config.configPath);
      match(yaml, new RegExp(`provider: ${provider}`));
      match(yaml, /default: some-model/);
      strictEqual(await Deno.readTextFile(envFile(app)), `${envVar}=${key}\n`);
      strictEqual((await Deno.stat(envFile(app))).mode! & 0o077, 0, ".env is owner-only");
      ok(!JSON.stringify(res.body).includes(key), "the key never comes back");
    });
  }
});

Deno.test("POST /api/onboarding/setup: custom needs base_url; a key with a newline and a missing key are 400", async () => {
  await withApp(async (app) => {
    const noBase = await app.call<{ error: string }>("POST", "/api/onboarding/setup", {
      provider: "custom",
      model: "m",
      api_key: "k",
    });
    strictEqual(noBase.status, 400);
    match(noBase.body.error, /base_url/);
    const newline = await app.call<{ error: string }>("POST", "/api/onboarding/setup", {
      provider: "openrouter",
      model: "m",
      api_key: "sk-abc\nEVIL=1",
    });
    strictEqual(newline.status, 400);
    match(newline.body.error, /newline/);
    const noKey = await app.call<{ error: string }>("POST", "/api/onboarding/setup", {
      provider: "openrouter",
      model: "m",
    });
    strictEqual(noKey.status, 400);
    match(noKey.body.error, /OPENROUTER_API_KEY is required/);
    const noModel = await app.call("POST", "/api/onboarding/setup", {
      provider: "openrouter",
      api_key: "sk-abc",
    });
    strictEqual(noModel.status, 400);
    await Deno.stat(app.ctx.config.configPath).then(
      () => ok(false, "nothing was written"),
      () => {},
    );
    const fake = startFakeProvider();
    try {
      const custom = await app.call<Status>("POST", "/api/onboarding/setup", {
        provider: "custom",
        model: "fake-model",
        base_url: fake.baseUrl,
      });
      strictEqual(custom.status, 200, JSON.stringify(custom.body));
      strictEqual(custom.body.system.setup_state, "ready");
      match(await Deno.readTextFile(app.ctx.config.configPath), /base_url: http:\/\/127\.0\.0\.1/);
    } finally {
      await fake.close();
    }
  });
});

Deno.test("POST /api/onboarding/setup refuses an existing config unless confirm_overwrite", async () => {
  const original = "# mine\nmodel:\n  provider: openrouter\n  default: old/model\n";
  await withApp(async (app) => {
    const body = { provider: "openrouter", model: "new/model", api_key: "sk-or-abcdefghijkl" };
    const refused = await app.call<Record<string, unknown>>("POST", "/api/onboarding/setup", body);
    // The original answers 200 with the refusal its wizard reads to ask for confirmation.
    strictEqual(refused.status, 200);
    strictEqual(refused.body.error, "config_exists");
    strictEqual(refused.body.requires_confirm, true);
    strictEqual(await Deno.readTextFile(app.ctx.config.configPath), original);
    const ok2 = await app.call<Status>("POST", "/api/onboarding/setup", {
      ...body,
      confirm_overwrite: true,
    });
    strictEqual(ok2.status, 200, JSON.stringify(ok2.body));
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    match(text, /# mine/, "comments are kept");
    match(text, /default: new\/model/);
  }, { configYaml: original });
});

Deno.test("GET /api/onboarding/status: a config.yaml and .env key written by hand skip the wizard", async () => {
  const key = "sk-or-v1-handwritten-0123456789";
  await withApp(async (app) => {
    strictEqual((await status(app)).completed, false, "no config: the wizard shows");
    // Written while the server runs, as the Hermes CLI (or the original's tests) would.
    await Deno.writeTextFile(
      app.ctx.config.configPath,
      "model:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4.6\n",
    );
    const keyless = await status(app);
    strictEqual(keyless.completed, false, "a provider without its key cannot chat yet");
    strictEqual(keyless.system.setup_state, "provider_incomplete");
    await Deno.writeTextFile(
      envFile(app),
      `OPENROUTER_API_KEY=${key}\nHERMES_WEBUI_PASSWORD=from-dotenv-file\n`,
    );
    const ready = await app.call<Status>("GET", "/api/onboarding/status");
    strictEqual(ready.body.system.chat_ready, true, JSON.stringify(ready.body.system));
    strictEqual(ready.body.completed, true);
    ok(!JSON.stringify(ready.body).includes(key), "the key is never answered");
    // The key is the one chats use, not only a status flag.
    strictEqual(app.ctx.config.env.OPENROUTER_API_KEY, key);
    strictEqual(app.ctx.config.env.HERMES_WEBUI_PASSWORD, undefined, "only *_API_KEY is taken");
    // Persisted: the wizard stays away even if the key goes missing later.
    await Deno.remove(envFile(app));
    strictEqual((await status(app)).completed, true);
  });
});

Deno.test("POST /api/onboarding/complete with the original's body persists only the flag", async () => {
  await withApp(async (app) => {
    await app.call("POST", "/api/settings", { theme: "dark", bot_name: "Athena" });
    const before = (await app.call<Record<string, unknown>>("GET", "/api/settings")).body;
    for (const body of [undefined, {}]) {
      const res = await app.call<Status & { ok: boolean }>(
        "POST",
        "/api/onboarding/complete",
        body,
      );
      strictEqual(res.status, 200, JSON.stringify(res.body));
      strictEqual(res.body.ok, true);
      strictEqual(res.body.completed, true);
    }
    const after = (await app.call<Record<string, unknown>>("GET", "/api/settings")).body;
    deepStrictEqual({ ...after, onboarding_completed: false }, before);
    strictEqual(after.onboarding_completed, true);
    await Deno.stat(app.ctx.config.configPath).then(
      () => ok(false, "no config was written"),
      () => {},
    );
  });
});

Deno.test("POST /api/onboarding/probe answers 200 with the original's error code for every outcome", async () => {
  const fake = startFakeProvider({ models: ["fake-model", "fake-model-large"] });
  // The original's fixture endpoints, by path: a bare list, a 404, a 500, a body that is not
  // JSON, JSON of another shape, and a list only for the right bearer token.
  const odd = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/barelist/models") return Response.json([{ id: "alpha" }, { id: "beta" }]);
    if (path === "/v1bad/models") return Response.json({ error: "not found" }, { status: 404 });
    if (path === "/v1/parse/models") return new Response("this is not json");
    if (path === "/v1/wrongshape/models") return Response.json({ unexpected: "shape" });
    if (path === "/v1/auth/models") {
      return req.headers.get("authorization") === "Bearer correct-token"
        ? Response.json({ data: [{ id: "auth-only" }] })
        : new Response("unauthorized", { status: 401 });
    }
    return Response.json({ error: "boom" }, { status: 500 });
  });
  const oddUrl = `http://127.0.0.1:${(odd.addr as Deno.NetAddr).port}`;
  type Answer = {
    ok: boolean;
    error?: string;
    detail?: string;
    status?: number;
    models?: Array<{ id: string; label: string }>;
  };
  try {
    await withApp(async (app) => {
      const probe = (body: unknown) => app.call<Answer>("POST", "/api/onboarding/probe", body);
      const cases: Array<[unknown, string, number?]> = [
        [{ provider: "lmstudio", base_url: "" }, "invalid_url"],
        [{ provider: "custom", base_url: "" }, "invalid_url"],
        [{ base_url: "   " }, "invalid_url"],
        [{ provider: "lmstudio", base_url: "ftp://example.com:1234/v1" }, "invalid_url"],
        [{ provider: "lmstudio", base_url: "http:///models" }, "invalid_url"],
        [{ provider: "lmstudio", base_url: "http://no-such-host-zxq987.invalid:1234/v1" }, "dns"],
        [{ provider: "custom", base_url: `${closedPort()}/v1` }, "connect_refused"],
        [{ provider: "lmstudio", base_url: `${oddUrl}/v1bad` }, "http_4xx", 404],
        [{ provider: "lmstudio", base_url: `${oddUrl}/v1explode` }, "http_5xx", 500],
        [{ provider: "lmstudio", base_url: `${oddUrl}/v1/parse` }, "parse"],
        [{ provider: "lmstudio", base_url: `${oddUrl}/v1/wrongshape` }, "parse"],
        [{ provider: "lmstudio", base_url: `${oddUrl}/v1/auth` }, "http_4xx", 401],
        [
          { provider: "lmstudio", base_url: `${oddUrl}/v1/auth`, api_key: "wrong-token" },
          "http_4xx",
        ],
        [{ provider: "custom", base_url: "http://169.254.169.254/v1" }, "blocked"],
        [{ provider: "openrouter", base_url: `${fake.baseUrl}` }, "missing_key"],
      ];
      for (const [body, error, status] of cases) {
        const res = await probe(body);
        const said = `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`;
        strictEqual(res.status, 200, said);
        strictEqual(res.body.ok, false, said);
        strictEqual(res.body.error, error, said);
        strictEqual(typeof res.body.detail, "string", said);
        if (status) strictEqual(res.body.status, status, said);
        ok(!("models" in res.body), said);
      }
      const live = await probe({ provider: "lmstudio", base_url: fake.baseUrl });
      strictEqual(live.status, 200);
      strictEqual(live.body.ok, true);
      strictEqual(live.body.error, undefined);
      deepStrictEqual(live.body.models, [
        { id: "fake-model", label: "fake-model" },
        { id: "fake-model-large", label: "fake-model-large" },
      ]);
      const bare = await probe({ provider: "lmstudio", base_url: `${oddUrl}/barelist` });
      deepStrictEqual(bare.body.models?.map((m) => m.id), ["alpha", "beta"]);
      const keyed = await probe({
        provider: "lmstudio",
        base_url: `${oddUrl}/v1/auth`,
        api_key: "correct-token",
      });
      strictEqual(keyed.body.ok, true, JSON.stringify(keyed.body));
      deepStrictEqual(keyed.body.models?.map((m) => m.id), ["auth-only"]);
      // The probe only reads: no config.yaml or .env is written.
      for (const path of [app.ctx.config.configPath, envFile(app)]) {
        await Deno.stat(path).then(() => ok(false, `${path} was written`), () => {});
      }
    });
  } finally {
    await fake.close();
    await odd.shutdown();
  }
});

Deno.test("POST /api/onboarding/setup accepts the original's other providers (ollama, gemini)", async () => {
  await withApp(async (app) => {
    const ollama = await app.call<Status>("POST", "/api/onboarding/setup", {
      provider: "ollama",
      model: "qwen3:32b",
      base_url: "http://127.0.0.1:11434/v1/",
    });
    strictEqual(ollama.status, 200, JSON.stringify(ollama.body));
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    match(text, /provider: ollama/);
    match(text, /base_url: http:\/\/127\.0\.0\.1:11434\/v1\n/, "the trailing slash is dropped");
    const gemini = await app.call<Status>("POST", "/api/onboarding/setup", {
      provider: "gemini",
      model: "gemini-2.5-pro",
      api_key: "AIza-test-key-0123456789",
      confirm_overwrite: true,
    });
    strictEqual(gemini.status, 200, JSON.stringify(gemini.body));
    strictEqual(gemini.body.system.chat_ready, true);
    match(
      await Deno.readTextFile(app.ctx.config.configPath),
      /generativelanguage\.googleapis\.com/,
    );
    match(await Deno.readTextFile(envFile(app)), /^GOOGLE_API_KEY=AIza-test-key-0123456789$/m);
  });
});
