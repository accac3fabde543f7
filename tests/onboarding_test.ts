// First-run onboarding: status with local Ollama / LM Studio detection (fake servers on loopback
// ports), probing an OpenAI-compatible /v1/models, and writing config.yaml so that comments and
// ${ENV} strings survive, a malformed file is never touched, and the choice works at once.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { createTestApp, type TestApp } from "./helpers.ts";
import type { OnboardingStatus } from "../lib/settings/onboarding.ts";
import { localServerUrls } from "../lib/settings/onboarding.ts";
import { storedPasswordHash } from "../lib/security/auth.ts";

interface FakeServer {
  url: string;
  requests: Array<{ path: string; auth: string | null }>;
  close(): Promise<void>;
}

/** A loopback server answering model lists the way Ollama and OpenAI-compatible servers do. */
function fakeServer(opts: { key?: string; models?: string[] } = {}): FakeServer {
  const models = opts.models ?? ["qwen2.5:7b", "llama3.1:8b"];
  const requests: FakeServer["requests"] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const auth = req.headers.get("authorization");
    requests.push({ path, auth });
    if (opts.key && auth !== `Bearer ${opts.key}`) {
      return Response.json({ error: "invalid api key" }, { status: 401 });
    }
    if (path === "/api/tags") return Response.json({ models: models.map((name) => ({ name })) });
    if (path === "/v1/models") {
      return Response.json({ object: "list", data: models.map((id) => ({ id, object: "model" })) });
    }
    return new Response("not found", { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => server.shutdown() };
}

/** A loopback port with nothing listening (bound, then released). */
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
      // tests/helpers.ts skips onboarding by default; these tests are about it.
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

const configPath = (app: TestApp) => app.ctx.config.configPath;

Deno.test("GET /api/onboarding/status detects local Ollama and LM Studio", async () => {
  const ollama = fakeServer({ models: ["qwen2.5:7b"] });
  const lmstudio = fakeServer({ models: ["mistral-7b-instruct"] });
  try {
    await withApp(async (app) => {
      const { status, body } = await app.call<OnboardingStatus>("GET", "/api/onboarding/status");
      strictEqual(status, 200);
      strictEqual(body.needed, true);
      strictEqual(body.has_provider, false);
      deepStrictEqual(body.detected.ollama.models, ["qwen2.5:7b"]);
      strictEqual(body.detected.ollama.reachable, true);
      deepStrictEqual(body.detected.lmstudio.models, ["mistral-7b-instruct"]);
      strictEqual(body.detected.lmstudio.reachable, true);
      strictEqual(body.config_path, configPath(app));
      strictEqual(body.config_error, null);
      strictEqual(body.workspace, app.workspace);
      deepStrictEqual(ollama.requests.map((r) => r.path), ["/api/tags"]);
      deepStrictEqual(lmstudio.requests.map((r) => r.path), ["/v1/models"]);
    }, {
      env: {
        OLLAMA_HOST: ollama.url.replace("http://", ""),
        LMSTUDIO_BASE_URL: `${lmstudio.url}/v1`,
      },
    });
  } finally {
    await ollama.close();
    await lmstudio.close();
  }
});

Deno.test("GET /api/onboarding/status reports unreachable servers and when onboarding is not needed", async () => {
  await withApp(async (app) => {
    const first = await app.call<OnboardingStatus>("GET", "/api/onboarding/status");
    strictEqual(first.body.detected.ollama.reachable, false);
    deepStrictEqual(first.body.detected.ollama.models, []);
    strictEqual(first.body.detected.lmstudio.reachable, false);
    strictEqual(first.body.needed, true);
    strictEqual(
      (await app.call("POST", "/api/settings", { onboarding_completed: true })).status,
      200,
    );
    const skipped = await app.call<OnboardingStatus>("GET", "/api/onboarding/status");
    strictEqual(skipped.body.needed, false, "skipped once: not shown again");
    strictEqual(skipped.body.has_provider, false);
  });
  await withApp(async (app) => {
    const { body } = await app.call<OnboardingStatus>("GET", "/api/onboarding/status");
    strictEqual(body.has_provider, true);
    strictEqual(body.provider, "openai");
    strictEqual(body.needed, false);
    strictEqual(body.providers.find((p) => p.id === "openai")?.has_key, true);
  }, { env: { OPENAI_API_KEY: "sk-env-0000000000000000" } });
  await withApp(async (app) => {
    const { body } = await app.call<OnboardingStatus>("GET", "/api/onboarding/status");
    strictEqual(body.needed, false);
  }, { env: { HERMES_WEBUI_SKIP_ONBOARDING: "1" } });
});

Deno.test("localServerUrls() reads OLLAMA_HOST the way Ollama does", () => {
  strictEqual(localServerUrls({}).ollama, "http://127.0.0.1:11434");
  strictEqual(localServerUrls({ OLLAMA_HOST: "0.0.0.0" }).ollama, "http://127.0.0.1:11434");
  strictEqual(localServerUrls({ OLLAMA_HOST: "0.0.0.0:9999" }).ollama, "http://127.0.0.1:9999");
  strictEqual(localServerUrls({ OLLAMA_HOST: "https://gpu.lan" }).ollama, "https://gpu.lan");
  strictEqual(localServerUrls({ OLLAMA_HOST: "gpu.lan" }).ollama, "http://gpu.lan:11434");
  strictEqual(localServerUrls({}).lmstudio, "http://127.0.0.1:1234/v1");
});

Deno.test("POST /api/onboarding/probe lists the models of a /v1/models endpoint", async () => {
  const key = "sk-local-abcdefghijklmnop";
  const server = fakeServer({ key, models: ["my-model", "other"] });
  const open = fakeServer({ models: ["my-model", "other"] });
  try {
    await withApp(async (app) => {
      const good = await app.call("POST", "/api/onboarding/probe", {
        provider: "custom",
        base_url: `${server.url}/v1`,
        api_key: key,
      });
      strictEqual(good.status, 200);
      deepStrictEqual(good.body, {
        ok: true,
        provider: "custom",
        base_url: `${server.url}/v1`,
        models: [{ id: "my-model", label: "my-model" }, { id: "other", label: "other" }],
        status: 200,
      });
      strictEqual(server.requests.at(-1)?.auth, `Bearer ${key}`);

      const wrong = await app.call<{ ok: boolean; error: string; detail: string }>(
        "POST",
        "/api/onboarding/probe",
        {
          provider: "custom",
          base_url: `${server.url}/v1`,
          api_key: "sk-wrong-000000000000000",
        },
      );
      strictEqual(wrong.status, 200);
      strictEqual(wrong.body.ok, false);
      strictEqual(wrong.body.error, "http_4xx");
      match(wrong.body.detail, /401/);
      ok(!JSON.stringify(wrong.body).includes("sk-wrong"), "the key is not echoed");

      const down = await app.call<{ ok: boolean; detail: string }>(
        "POST",
        "/api/onboarding/probe",
        {
          provider: "lmstudio",
          base_url: `${closedPort()}/v1`,
        },
      );
      strictEqual(down.body.ok, false);
      match(down.body.detail, /Cannot reach/);

      const metadata = await app.call<{ ok: boolean; detail: string }>(
        "POST",
        "/api/onboarding/probe",
        {
          provider: "custom",
          base_url: "http://169.254.169.254/latest",
        },
      );
      strictEqual(metadata.body.ok, false);
      match(metadata.body.detail, /Refusing/);

      // The original's contract: a structured answer, not an HTTP error.
      const noUrl = await app.call<{ ok: boolean; error: string }>(
        "POST",
        "/api/onboarding/probe",
        { provider: "custom" },
      );
      strictEqual(noUrl.status, 200);
      strictEqual(noUrl.body.error, "invalid_url");
      const badScheme = await app.call<{ ok: boolean; error: string }>(
        "POST",
        "/api/onboarding/probe",
        { provider: "custom", base_url: "file:///etc/passwd" },
      );
      strictEqual(badScheme.status, 200);
      strictEqual(badScheme.body.error, "invalid_url");
      // A configured key goes only to its own endpoint, never to a URL typed into the wizard.
      const elsewhere = await app.call<{ ok: boolean; detail: string }>(
        "POST",
        "/api/onboarding/probe",
        { provider: "openrouter", base_url: `${open.url}/v1` },
      );
      strictEqual(elsewhere.body.ok, false);
      match(elsewhere.body.detail, /No api key/);
      strictEqual(open.requests.length, 0, "the OPENROUTER_API_KEY was not sent anywhere");
      const home = await app.call<{ ok: boolean; error: string }>(
        "POST",
        "/api/onboarding/probe",
        { provider: "custom", base_url: `${open.url}/v1` },
      );
      strictEqual(home.body.ok, true);
      strictEqual(open.requests.at(-1)?.auth, null);

      const noKey = await app.call<{ ok: boolean; detail: string }>(
        "POST",
        "/api/onboarding/probe",
        {
          provider: "openai",
        },
      );
      strictEqual(noKey.body.ok, false);
      match(noKey.body.detail, /OPENAI_API_KEY/);
      ok(!app.logs.some((l) => l.includes(key)));
    }, { env: { OPENROUTER_API_KEY: "sk-or-v1-secret-0000000000" } });
  } finally {
    await server.close();
    await open.close();
  }
});

const HAND_WRITTEN = `# My Hermes setup — written by hand
model:
  provider: openrouter   # the old provider
  default: openai/gpt-4o-mini
  api_key: \${OPENROUTER_API_KEY}

mcp_servers:
  github:
    command: npx
    env:
      GITHUB_TOKEN: \${GITHUB_TOKEN}  # never inline the token
`;

Deno.test("POST /api/onboarding/complete keeps comments and ${ENV} strings and applies at once", async () => {
  const server = fakeServer({ models: ["my-model"] });
  try {
    await withApp(async (app) => {
      let invalidations = 0;
      app.ctx.onProviderConfigChange.push(() => void invalidations++);
      const res = await app.call<Record<string, unknown>>("POST", "/api/onboarding/complete", {
        provider: "custom",
        base_url: `${server.url}/v1`,
        model: "my-model",
      });
      strictEqual(res.status, 200, JSON.stringify(res.body));
      strictEqual(res.body.provider, "custom");
      strictEqual(res.body.default_model, "my-model");
      strictEqual(res.body.has_provider, true);

      const text = await Deno.readTextFile(configPath(app));
      match(text, /^# My Hermes setup — written by hand/);
      match(text, /GITHUB_TOKEN: \$\{GITHUB_TOKEN\} +# never inline the token/);
      const written = parseDocument(text).toJS();
      deepStrictEqual(written.model, {
        provider: "custom",
        default: "my-model",
        base_url: `${server.url}/v1`,
      }, "the old provider's key is not carried over to another vendor");
      deepStrictEqual(written.mcp_servers.github.env, { GITHUB_TOKEN: "${GITHUB_TOKEN}" });

      // No restart: the running app serves the new provider.
      strictEqual(invalidations, 1);
      strictEqual(app.ctx.config.defaultModel, "my-model");
      const status = await app.call<OnboardingStatus>("GET", "/api/onboarding/status");
      strictEqual(status.body.provider, "custom");
      strictEqual(status.body.needed, false);
      const created = await app.call<{ session: { model: string } }>(
        "POST",
        "/api/session/new",
        {},
      );
      strictEqual(created.body.session.model, "my-model");
    }, { configYaml: HAND_WRITTEN, env: { OPENROUTER_API_KEY: "sk-or-0000000000000000" } });
  } finally {
    await server.close();
  }
});

Deno.test("POST /api/onboarding/complete with the same provider keeps its ${ENV} key", async () => {
  await withApp(async (app) => {
    const res = await app.call("POST", "/api/onboarding/complete", {
      provider: "openrouter",
      model: "anthropic/claude-sonnet-4",
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    const text = await Deno.readTextFile(configPath(app));
    match(text, /api_key: \$\{OPENROUTER_API_KEY\}/);
    match(text, /provider: openrouter +# the old provider/);
    match(text, /default: anthropic\/claude-sonnet-4/);
  }, { configYaml: HAND_WRITTEN, env: { OPENROUTER_API_KEY: "sk-or-0000000000000000" } });
});

Deno.test("POST /api/onboarding/complete never overwrites a malformed config file", async () => {
  await withApp(async (app) => {
    const broken = "model:\n  provider: openai\n  default: [gpt-4o\n# a comment\n";
    await Deno.writeTextFile(configPath(app), broken);
    const before = await Deno.readFile(configPath(app));
    const res = await app.call<{ error: string }>("POST", "/api/onboarding/complete", {
      provider: "custom",
      base_url: "http://127.0.0.1:8080/v1",
      model: "m",
      password: "a long password",
    });
    strictEqual(res.status, 400);
    ok(res.body.error.includes(configPath(app)), res.body.error);
    match(res.body.error, /line \d+/);
    deepStrictEqual(await Deno.readFile(configPath(app)), before, "byte-for-byte intact");
    strictEqual(await storedPasswordHash(app.ctx.db), null, "nothing else was applied either");
    const status = await app.call<OnboardingStatus>("GET", "/api/onboarding/status");
    match(status.body.config_error ?? "", /malformed at line/);
    const dir = await Array.fromAsync(Deno.readDir(join(configPath(app), "..")));
    ok(!dir.some((e) => e.name.endsWith(".tmp")), "no temp file left behind");
  });
});

Deno.test("POST /api/onboarding/complete refuses a keyed provider without any key", async () => {
  await withApp(async (app) => {
    const res = await app.call<{ error: string }>("POST", "/api/onboarding/complete", {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });
    strictEqual(res.status, 400);
    match(res.body.error, /"api_key".*ANTHROPIC_API_KEY/);
    let exists = true;
    await Deno.stat(configPath(app)).catch(() => (exists = false));
    strictEqual(exists, false, "no file was created");
    const missing = await app.call<{ error: string }>("POST", "/api/onboarding/complete", {
      provider: "custom",
      model: "m",
    });
    strictEqual(missing.status, 400);
    match(missing.body.error, /"base_url"/);
  });
});

Deno.test("POST /api/onboarding/complete writes a key, keeps it on a masked echo, sets the password", async () => {
  const key = "sk-ant-api03-abcdefghijklmnopqrstuv";
  await withApp(async (app) => {
    const dir = join(app.workspace, "code");
    await Deno.mkdir(dir);
    const first = await app.request("POST", "/api/onboarding/complete", {
      provider: "anthropic",
      api_key: key,
      model: "claude-sonnet-4-5",
      workspace: dir,
      password: "a long password",
    });
    strictEqual(first.status, 200);
    const body = await first.json();
    ok(!JSON.stringify(body).includes(key));
    strictEqual(body.workspace, await Deno.realPath(dir));
    const cookie = first.headers.get("set-cookie")?.split(";")[0] ?? "";
    match(cookie, /^hermes_session=/);
    ok(await storedPasswordHash(app.ctx.db));
    const text = await Deno.readTextFile(configPath(app));
    match(text, new RegExp(`api_key: ${key}`));
    strictEqual(
      (await Deno.stat(configPath(app))).mode! & 0o777,
      0o600,
      "a file with a key is private",
    );

    // The wizard re-opened shows the key masked and sends the mask back.
    const again = await app.call("POST", "/api/onboarding/complete", {
      provider: "anthropic",
      api_key: "sk-ant-…stuv",
      model: "claude-haiku-4-5",
    }, { cookie });
    strictEqual(again.status, 200, JSON.stringify(again.body));
    const after = parseDocument(await Deno.readTextFile(configPath(app))).toJS();
    deepStrictEqual(after.model, {
      provider: "anthropic",
      default: "claude-haiku-4-5",
      api_key: key,
    });
    ok(!app.logs.some((l) => l.includes(key)));
  });
});

Deno.test("POST /api/onboarding/complete makes a shared config file private once it holds a key", async () => {
  await withApp(async (app) => {
    await Deno.chmod(configPath(app), 0o644);
    const res = await app.call("POST", "/api/onboarding/complete", {
      provider: "openai",
      api_key: "sk-proj-abcdefghijklmnop5678",
      model: "gpt-4.1",
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual((await Deno.stat(configPath(app))).mode! & 0o777, 0o600);
    match(await Deno.readTextFile(configPath(app)), /^# My Hermes setup/);
  }, { configYaml: HAND_WRITTEN });
});

Deno.test("POST /api/onboarding/probe with a masked key uses the configured key at its own URL", async () => {
  const key = "sk-local-zyxwvutsrqponmlk";
  const server = fakeServer({ key, models: ["m1"] });
  try {
    await withApp(async (app) => {
      const res = await app.call("POST", "/api/onboarding/probe", {
        provider: "custom",
        base_url: `${server.url}/v1/`,
        api_key: "sk-…nmlk",
      });
      const { ok: probed, models } = res.body as { ok: boolean; models: Array<{ id: string }> };
      deepStrictEqual({ ok: probed, models: models.map((m) => m.id) }, {
        ok: true,
        models: ["m1"],
      });
      strictEqual(server.requests.at(-1)?.auth, `Bearer ${key}`);
    }, {
      configYaml: `model:\n  provider: custom\n  base_url: ${server.url}/v1\n  api_key: ${key}\n`,
    });
  } finally {
    await server.close();
  }
});
