// The provider routes a person drives from the Providers panel: list (keys masked), create and
// update (config.yaml keeps its comments; a masked key sent back keeps the stored one), delete,
// Test connection and the live model list against the fake provider, metered quota and cost
// history from our own usage table, the auxiliary model and the reasoning effort. Hostile
// input: refused base_urls, keys with newlines, unknown providers.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { parseDocument } from "yaml";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { resolveProviders } from "../lib/providers/provider_config.ts";
import { engineOptionsFromConfig } from "../lib/engine/engine_options.ts";
import { auxiliaryModel } from "../lib/goals/evaluator.ts";
import { startHarness } from "./fixtures/engine_harness.ts";
import { sql } from "../lib/storage/db.ts";

const CONFIG = `# my hermes settings
model:
  provider: custom
  base_url: http://127.0.0.1:9/v1 # local server
  default: local-model
providers:
  # keep this note
  openai:
    api_key: sk-stored-openai-key-1234
`;

interface Row {
  id: string;
  has_key: boolean;
  api_key: string | null;
  base_url: string | null;
  headers: Record<string, string>;
  models: Array<{ id: string; label: string }>;
  config_models: string[];
  configured: boolean;
  active: boolean;
}

async function withApp(fn: (app: TestApp) => Promise<void>, configYaml = CONFIG) {
  const app = await createTestApp({ configYaml });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

const fileText = (app: TestApp) => Deno.readTextFile(app.ctx.config.configPath);
// deno-lint-ignore no-explicit-any
type Loose = Record<string, any>;
const fileJs = async (app: TestApp) => parseDocument(await fileText(app)).toJS() as Loose;

async function list(app: TestApp): Promise<Row[]> {
  const res = await app.call<{ providers: Row[] }>("GET", "/api/providers");
  strictEqual(res.status, 200);
  return res.body.providers;
}

Deno.test("GET /api/providers lists known and configured providers with keys masked", async () => {
  await withApp(async (app) => {
    const res = await app.call<{ providers: Row[]; active_provider: string }>(
      "GET",
      "/api/providers",
    );
    strictEqual(res.status, 200);
    strictEqual(res.body.active_provider, "custom");
    const ids = res.body.providers.map((p) => p.id);
    for (const id of ["custom", "openai", "anthropic", "openrouter", "ollama", "lmstudio"]) {
      ok(ids.includes(id), `${id} is listed`);
    }
    strictEqual(ids[0], "custom", "the active provider comes first");
    const openai = res.body.providers.find((p) => p.id === "openai")!;
    strictEqual(openai.has_key, true);
    strictEqual(openai.api_key, "sk-…1234");
    ok(!JSON.stringify(res.body).includes("sk-stored-openai-key"), "no key leaves in full");
    const anthropic = res.body.providers.find((p) => p.id === "anthropic")!;
    strictEqual(anthropic.has_key, false);
    strictEqual(anthropic.configured, false);
  });
});

Deno.test("POST /api/providers adds a custom endpoint that resolveProviders reads", async () => {
  await withApp(async (app) => {
    const res = await app.call<{ provider: string; entry: Row; created: boolean }>(
      "POST",
      "/api/providers",
      {
        provider: "custom",
        name: "My LLM",
        base_url: "http://127.0.0.1:8099/v1",
        api_key: "secret-custom-key-5678",
        headers: { "X-Team": "blue", "X-Token": "header-secret-abcd" },
        models: ["m-one", "m-two"],
      },
    );
    strictEqual(res.status, 201);
    strictEqual(res.body.created, true);
    strictEqual(res.body.provider, "custom:My LLM");
    strictEqual(res.body.entry.api_key, "…5678");
    deepStrictEqual(res.body.entry.models, [
      { id: "m-one", label: "m-one" },
      { id: "m-two", label: "m-two" },
    ]);
    strictEqual(res.body.entry.headers["X-Team"], "••••••••", "header values are masked");
    const text = await fileText(app);
    ok(text.startsWith("# my hermes settings"), "the top comment survives");
    ok(text.includes("# keep this note"), "a nested comment survives");
    ok(text.includes("# local server"), "an inline comment survives");
    const endpoint = resolveProviders(app.ctx.config).endpoints.find((e) =>
      e.id === "custom:My LLM"
    );
    ok(endpoint, "the running app resolves the new endpoint without a restart");
    strictEqual(endpoint!.baseUrl, "http://127.0.0.1:8099/v1");
    strictEqual(endpoint!.apiKey, "secret-custom-key-5678");
    deepStrictEqual(endpoint!.headers, { "X-Team": "blue", "X-Token": "header-secret-abcd" });
    deepStrictEqual(endpoint!.models, ["m-one", "m-two"]);
  });
});

Deno.test("POST /api/providers with the masked key sent back keeps the stored key", async () => {
  await withApp(async (app) => {
    const before = (await list(app)).find((p) => p.id === "openai")!;
    const res = await app.call("POST", "/api/providers", {
      provider: "openai",
      api_key: before.api_key,
      base_url: "https://api.openai.com/v1",
    });
    strictEqual(res.status, 200);
    const js = await fileJs(app);
    strictEqual(js.providers.openai.api_key, "sk-stored-openai-key-1234");
    strictEqual(js.providers.openai.base_url, "https://api.openai.com/v1");
    // A new key replaces it; an empty one removes it.
    await app.call("POST", "/api/providers", { provider: "openai", api_key: "sk-new-key-999999" });
    strictEqual((await fileJs(app)).providers.openai.api_key, "sk-new-key-999999");
    await app.call("POST", "/api/providers", { provider: "openai", api_key: "" });
    strictEqual((await fileJs(app)).providers.openai.api_key, undefined);
    // A mask with nothing stored is refused rather than written as a key.
    const masked = await app.call<{ error: string }>("POST", "/api/providers", {
      provider: "anthropic",
      api_key: "sk-…1234",
    });
    strictEqual(masked.status, 400);
    match(masked.body.error, /api_key/);
  });
});

Deno.test("POST /api/providers edits the active provider where it is read (model.*)", async () => {
  await withApp(async (app) => {
    const res = await app.call("POST", "/api/providers", {
      provider: "custom",
      base_url: "http://127.0.0.1:8100/v1",
    });
    strictEqual(res.status, 200);
    const js = await fileJs(app);
    strictEqual(js.model.base_url, "http://127.0.0.1:8100/v1");
    strictEqual(resolveProviders(app.ctx.config).active?.baseUrl, "http://127.0.0.1:8100/v1");
  });
});

Deno.test("POST /api/providers refuses hostile input and writes nothing", async () => {
  await withApp(async (app) => {
    const before = await fileText(app);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ provider: "custom", name: "x", base_url: "http://0.0.0.0:1/v1" }, 400, /base_url/],
      [{ provider: "custom", name: "x", base_url: "http://169.254.169.254/" }, 400, /base_url/],
      [{ provider: "openai", base_url: "http://169.254.169.254/latest/" }, 400, /base_url/],
      [{ provider: "custom", name: "x", base_url: "file:///etc/passwd" }, 400, /base_url/],
      [{ provider: "openai", api_key: "sk-abc\nmodel: evil" }, 400, /api_key/],
      [{ provider: "openai", api_key: "sk-abc def-ghij-klmn" }, 400, /api_key/],
      [
        {
          provider: "custom",
          name: "x",
          base_url: "http://127.0.0.1:1/v1",
          headers: { "X-A": "a\r\nb" },
        },
        400,
        /headers/,
      ],
      [{ provider: "custom", name: "../../x", base_url: "http://127.0.0.1:1/v1" }, 400, /name/],
      [{ provider: "nonesuch", api_key: "sk-1234567890abc" }, 404, /Unknown provider/],
      [{ provider: "custom", name: "nobase" }, 400, /base_url/],
      [{ provider: "openai", extra: 1 }, 400, /extra|Unrecognized/i],
    ];
    for (const [body, status, error] of cases) {
      const res = await app.call<{ error: string }>("POST", "/api/providers", body);
      strictEqual(res.status, status, JSON.stringify(body));
      match(res.body.error, error);
    }
    strictEqual(await fileText(app), before, "config.yaml is untouched");
  });
});

Deno.test("POST /api/providers/delete removes a provider; unknown 404, active 409", async () => {
  await withApp(async (app) => {
    await app.call("POST", "/api/providers", {
      provider: "custom",
      name: "gone",
      base_url: "http://127.0.0.1:8101/v1",
    });
    const del = await app.call("POST", "/api/providers/delete", { provider: "custom:gone" });
    strictEqual(del.status, 200);
    strictEqual((await fileJs(app)).custom_providers, undefined);
    ok(!(await list(app)).some((p) => p.id === "custom:gone"));
    const openai = await app.call("POST", "/api/providers/delete", { provider: "openai" });
    strictEqual(openai.status, 200);
    strictEqual((await fileJs(app)).providers.openai, undefined);
    ok((await fileText(app)).startsWith("# my hermes settings"));
    strictEqual(
      (await app.call("POST", "/api/providers/delete", { provider: "custom:nope" })).status,
      404,
    );
    strictEqual(
      (await app.call("POST", "/api/providers/delete", { provider: "anthropic" })).status,
      404,
    );
    strictEqual(
      (await app.call("POST", "/api/providers/delete", { provider: "nonesuch" })).status,
      404,
    );
    strictEqual(
      (await app.call("POST", "/api/providers/delete", { provider: "custom" })).status,
      409,
    );
  });
});

Deno.test("POST /api/providers/test and GET /api/models/live list the fake provider's models", async () => {
  const fake = startFakeProvider({ models: ["fake-alpha", "fake-beta"] });
  try {
    await withApp(async (app) => {
      // Unsaved form values: nothing written yet.
      const unsaved = await app.call<{ ok: boolean; models: Array<{ id: string }> }>(
        "POST",
        "/api/providers/test",
        { provider: "custom", name: "fake", base_url: fake.baseUrl, api_key: "fake-key-12345678" },
      );
      strictEqual(unsaved.status, 200);
      strictEqual(unsaved.body.ok, true);
      deepStrictEqual(unsaved.body.models.map((m) => m.id), ["fake-alpha", "fake-beta"]);
      const probe = fake.requests.find((r) => r.protocol === "models")!;
      strictEqual(probe.headers.authorization, "Bearer fake-key-12345678");

      await app.call("POST", "/api/providers", {
        provider: "custom",
        name: "fake",
        base_url: fake.baseUrl,
        api_key: "fake-key-12345678",
        headers: { "X-Team": "blue" },
      });
      // Saved: the masked key in the form means the stored one.
      fake.requests.length = 0;
      const saved = await app.call<{ ok: boolean; count: number }>("POST", "/api/providers/test", {
        provider: "custom:fake",
        api_key: "…5678",
      });
      strictEqual(saved.body.ok, true);
      strictEqual(saved.body.count, 2);
      strictEqual(fake.requests[0].headers.authorization, "Bearer fake-key-12345678");
      strictEqual(fake.requests[0].headers["x-team"], "blue", "configured headers are sent");

      // The stored key never goes to a URL typed in the form (nor does an expanded ${ENV}).
      const other = startFakeProvider({ models: ["other-model"] });
      try {
        const moved = await app.call<{ ok: boolean }>("POST", "/api/providers/test", {
          provider: "custom:fake",
          base_url: other.baseUrl,
          api_key: "…5678",
        });
        strictEqual(moved.body.ok, true);
        strictEqual(other.requests[0].headers.authorization, undefined);
        strictEqual(other.requests[0].headers["x-team"], undefined);
        await app.call("POST", "/api/providers/test", {
          provider: "custom:fake",
          base_url: other.baseUrl,
          api_key: "${PATH}",
        });
        strictEqual(other.requests[1].headers.authorization, "Bearer ${PATH}");
      } finally {
        await other.close();
      }

      const live = await app.call<{ ok: boolean; models: Array<{ id: string }> }>(
        "GET",
        `/api/models/live?provider=${encodeURIComponent("custom:fake")}`,
      );
      strictEqual(live.status, 200);
      deepStrictEqual(live.body.models.map((m) => m.id), ["fake-alpha", "fake-beta"]);
      strictEqual(
        (await app.call("GET", "/api/models/live?provider=nonesuch")).status,
        404,
      );
      strictEqual((await app.call("GET", "/api/models/live")).status, 400);

      // A refused address is refused before any request; an unreachable one is reported.
      const blocked = await app.call<{ error: string }>("POST", "/api/providers/test", {
        provider: "custom",
        name: "meta",
        base_url: "http://169.254.169.254/v1",
      });
      strictEqual(blocked.status, 400);
      const down = await app.call<{ ok: boolean; error: string }>("POST", "/api/providers/test", {
        provider: "custom",
        name: "down",
        base_url: "http://127.0.0.1:9/v1",
      });
      strictEqual(down.body.ok, false);
      match(down.body.error, /Cannot reach/);
    });
  } finally {
    await fake.close();
  }
});

Deno.test("GET /api/provider/quota and cost-history come from our own metering", async () => {
  const now = Date.UTC(2026, 11, 1, 12) / 1000;
  const app = await createTestApp({ configYaml: CONFIG, clock: () => now });
  try {
    const s = await app.call<{ session: { session_id: string } }>("POST", "/api/session/new", {});
    const sid = s.body.session.session_id;
    const seed = (
      provider: string,
      t: number,
      input: number,
      output: number,
      cost: number | null,
    ) =>
      app.ctx.db.run(
        sql`INSERT INTO usage (session_id, model, model_provider, input_tokens, output_tokens,
              cost, created_at)
            VALUES (${sid}, 'm', ${provider}, ${input}, ${output}, ${cost}, ${t})`,
      );
    await seed("openai", now - 60, 100, 10, 0.5);
    await seed("openai", now - 120, 50, 5, 0.25);
    await seed("openai", now - 86_400 * 2, 1000, 100, 2);
    await seed("openai", now - 86_400 * 40, 9999, 999, 99);
    await seed("anthropic", now - 60, 7, 7, 7);

    const q = await app.call<
      {
        quota: Record<string, { cost: number; input_tokens: number; turns: number }>;
        source: string;
      }
    >(
      "GET",
      "/api/provider/quota?provider=openai",
    );
    strictEqual(q.status, 200);
    strictEqual(q.body.source, "metering");
    deepStrictEqual(
      [q.body.quota.today.turns, q.body.quota.today.input_tokens, q.body.quota.today.cost],
      [2, 150, 0.75],
    );
    strictEqual(q.body.quota.last_7_days.cost, 2.75);
    strictEqual(q.body.quota.last_30_days.turns, 3, "older turns are outside the window");

    const h = await app.call<{
      snapshots: Array<{ date: string; delta: number | null; used: number }>;
      total_cost: number;
    }>("GET", "/api/provider/cost-history?provider=openai&days=3");
    strictEqual(h.status, 200);
    deepStrictEqual(h.body.snapshots.map((d) => [d.date, d.delta, d.used]), [
      ["2026-11-29", 2, 2],
      ["2026-11-30", null, 2],
      ["2026-12-01", 0.75, 2.75],
    ]);
    strictEqual(h.body.total_cost, 2.75);
    strictEqual(
      (await app.call("GET", "/api/provider/cost-history?provider=openai&days=0")).status,
      400,
    );
    strictEqual(
      (await app.call("GET", "/api/provider/cost-history?provider=openai&days=abc")).status,
      400,
    );
    strictEqual((await app.call("GET", "/api/provider/quota?provider=nonesuch")).status, 404);
    strictEqual((await app.call("GET", "/api/provider/cost-history")).status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("/api/model/auxiliary sets model.auxiliary, which the goal evaluator reads", async () => {
  await withApp(async (app) => {
    const get = await app.call<{ auxiliary: unknown; main: { model: string } }>(
      "GET",
      "/api/model/auxiliary",
    );
    deepStrictEqual(get.body.auxiliary, { model: "legacy-model", source: "auxiliary_model" });
    strictEqual(get.body.main.model, "local-model");
    const set = await app.call<{ auxiliary: { model: string } }>("POST", "/api/model/auxiliary", {
      model: "small-model",
    });
    strictEqual(set.status, 200);
    strictEqual(set.body.auxiliary.model, "small-model");
    strictEqual(auxiliaryModel(app.ctx.config.file), "small-model");
    ok((await fileText(app)).includes("# keep this note"));
    strictEqual(
      (await app.call("POST", "/api/model/auxiliary", { model: "a\nb" })).status,
      400,
    );
    strictEqual((await fileJs(app)).auxiliary_model, undefined, "the legacy key is replaced");
    await app.call("POST", "/api/model/auxiliary", { model: null });
    strictEqual(auxiliaryModel(app.ctx.config.file), null);
  }, CONFIG + "auxiliary_model: legacy-model\n");
});

Deno.test("/api/reasoning sets agent.reasoning_effort, which the engine reads", async () => {
  await withApp(async (app) => {
    const get = await app.call<{ reasoning_effort: string | null; supported_efforts: string[] }>(
      "GET",
      "/api/reasoning",
    );
    strictEqual(get.body.reasoning_effort, null);
    ok(get.body.supported_efforts.includes("high"));
    const set = await app.call<{ reasoning_effort: string }>("POST", "/api/reasoning", {
      effort: "high",
    });
    strictEqual(set.status, 200);
    strictEqual(set.body.reasoning_effort, "high");
    strictEqual(engineOptionsFromConfig(app.ctx.config).reasoning, "high");
    strictEqual((await fileJs(app)).agent.reasoning_effort, "high");
    const bad = await app.call<{ error: string }>("POST", "/api/reasoning", { effort: "turbo" });
    strictEqual(bad.status, 400);
    match(bad.body.error, /effort/);
    await app.call("POST", "/api/reasoning", { effort: null });
    strictEqual(engineOptionsFromConfig(app.ctx.config).reasoning, undefined);
    ok((await fileText(app)).startsWith("# my hermes settings"));
  });
});

Deno.test("a provider's configured headers reach its chat requests", async () => {
  const h = await startHarness({
    yaml: "providers:\n  custom:\n    headers:\n      X-Team: blue\n      X-Tenant: ${TENANT}\n",
    env: { TENANT: "acme" },
  });
  try {
    h.fake.enqueue({ text: "hi" });
    const run = await h.start("hello");
    await h.stream(run.stream_id);
    const req = h.fake.chatRequests.at(-1)!;
    strictEqual(req.headers["x-team"], "blue");
    strictEqual(req.headers["x-tenant"], "acme", "${ENV} references are expanded");
    strictEqual(req.headers.authorization, "Bearer test-openai-key");
  } finally {
    await h.close();
  }
});
