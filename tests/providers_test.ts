// Provider configuration, prices, context windows and error normalization.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { APICallError } from "ai";
import { type AppConfig, loadConfig, parseConfigText } from "../lib/settings/config.ts";
import {
  pickEndpoint,
  publicEndpoint,
  resolveProviders,
} from "../lib/providers/provider_config.ts";
import { canonicalModelId, estimateCost, priceFor } from "../lib/providers/pricing.ts";
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from "../lib/models/known_models.ts";
import { toProviderFailure } from "../lib/providers/provider_errors.ts";

function config(yaml: string, env: Record<string, string> = {}): AppConfig {
  const c = loadConfig({ HOME: "/tmp", HERMES_CONFIG_PATH: "/nonexistent/config.yaml", ...env });
  return { ...c, file: parseConfigText(yaml, "/x/config.yaml"), configPath: "/x/config.yaml" };
}

Deno.test("resolveProviders() reads the Hermes model section with ${ENV} keys", () => {
  const secrets: string[] = [];
  const r = resolveProviders(
    config(
      "model:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4\n  api_key: ${MY_KEY}\n",
      {
        MY_KEY: "or-secret-123",
      },
    ),
    { addSecret: (s) => secrets.push(s) },
  );
  strictEqual(r.activeProviderId, "openrouter");
  strictEqual(r.active?.baseUrl, "https://openrouter.ai/api/v1");
  strictEqual(r.active?.protocol, "openai-compatible");
  strictEqual(r.active?.apiKey, "or-secret-123");
  strictEqual(r.defaultModel, "anthropic/claude-sonnet-4");
  deepStrictEqual(secrets, ["or-secret-123"]);
  ok(!JSON.stringify(publicEndpoint(r.active!)).includes("or-secret-123"));
});

Deno.test("resolveProviders() detects keys in the environment when nothing is configured", () => {
  const r = resolveProviders(
    config("", { OPENAI_API_KEY: "sk-test-1", ANTHROPIC_API_KEY: "ak-test-2" }),
  );
  deepStrictEqual(r.endpoints.map((e) => [e.id, e.userConfigured]), [["openai", false], [
    "anthropic",
    false,
  ]]);
  strictEqual(r.activeProviderId, "anthropic");
  strictEqual(r.defaultModel, "claude-sonnet-4-5");
  const none = resolveProviders(config(""));
  strictEqual(none.active, null);
  match(none.issue!, /No LLM provider/);
});

Deno.test("resolveProviders() handles custom base_url, local servers and custom_providers", () => {
  const r = resolveProviders(config(
    `
model:
  provider: custom
  base_url: http://127.0.0.1:8080/v1
  default: qwen
providers:
  ollama: {}
  lmstudio:
    base_url: http://10.0.0.2:1234/v1
custom_providers:
  - name: vllm
    base_url: http://gpu:8000/v1
    key_env: VLLM_KEY
    models: [llama-70b, {id: mistral}]
`,
    { VLLM_KEY: "vk" },
  ));
  strictEqual(r.activeProviderId, "custom");
  strictEqual(r.active?.baseUrl, "http://127.0.0.1:8080/v1");
  deepStrictEqual(r.active?.models, ["qwen"]);
  const byId = Object.fromEntries(r.endpoints.map((e) => [e.id, e]));
  strictEqual(byId.ollama.baseUrl, "http://127.0.0.1:11434/v1");
  strictEqual(byId.lmstudio.baseUrl, "http://10.0.0.2:1234/v1");
  strictEqual(byId["custom:vllm"].apiKey, "vk");
  deepStrictEqual(byId["custom:vllm"].models, ["llama-70b", "mistral"]);
  strictEqual(pickEndpoint(r, "custom:vllm")?.baseUrl, "http://gpu:8000/v1");
  strictEqual(pickEndpoint(r, "openai"), null, "an unusable provider is never swapped for another");
  strictEqual(pickEndpoint(r, null)?.id, "custom");
});

Deno.test("resolveProviders() explains a selected provider that has no key", () => {
  const r = resolveProviders(config("model: {provider: anthropic, default: claude-sonnet-4}"));
  strictEqual(r.active, null);
  match(r.issue!, /ANTHROPIC_API_KEY/);
  match(r.issue!, /\/x\/config\.yaml/);
});

Deno.test("priceFor() matches vendor-prefixed, dated and dotted ids; unknown is null", () => {
  strictEqual(canonicalModelId("anthropic/claude-sonnet-4.5"), "claude-sonnet-4-5");
  strictEqual(canonicalModelId("gpt-4o-2024-08-06"), "gpt-4o");
  deepStrictEqual(priceFor("gpt-4o-mini"), { input: 0.15, output: 0.6, cached: 0.075 });
  strictEqual(priceFor("openai/gpt-4o")?.input, 2.5);
  strictEqual(priceFor("claude-3-5-haiku-20241022")?.input, 0.8);
  strictEqual(priceFor("gpt-4.1-mini")?.input, 0.4);
  strictEqual(priceFor("llama3.1:8b"), null);
  strictEqual(estimateCost("my-local-model", { inputTokens: 100, outputTokens: 10 }), null);
  // 1M input of which 200k cached, 100k output on gpt-4o: 0.8*2.5 + 0.2*1.25 + 0.1*10
  strictEqual(
    estimateCost("gpt-4o", {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cachedTokens: 200_000,
    }),
    3.25,
  );
  strictEqual(
    estimateCost("mine", { inputTokens: 1e6, outputTokens: 0 }, { mine: { input: 1, output: 2 } }),
    1,
  );
});

Deno.test("contextWindowFor() uses overrides, then the table, then the default", () => {
  strictEqual(contextWindowFor("claude-3-5-haiku-latest"), 200_000);
  strictEqual(contextWindowFor("gpt-4.1-mini"), 1_047_576);
  strictEqual(contextWindowFor("llama3.1:8b"), 131_072);
  strictEqual(contextWindowFor("something-new"), DEFAULT_CONTEXT_WINDOW);
  strictEqual(contextWindowFor("something-new", { "something-new": 4096 }), 4096);
});

Deno.test("toProviderFailure() maps statuses to kinds with hints and never leaks the key", () => {
  const ctx = {
    endpoint: { id: "openai", label: "OpenAI", apiKey: "sk-live-abcdefghijklmnopqrstuvwxyz" },
    model: "gpt-4o",
    configPath: "/x/config.yaml",
  };
  const err = (statusCode: number, body: unknown, headers: Record<string, string> = {}) =>
    new APICallError({
      message: "failed",
      url: "https://api.openai.com/v1/chat/completions",
      requestBodyValues: {},
      statusCode,
      responseHeaders: headers,
      responseBody: JSON.stringify(body),
    });
  const auth = toProviderFailure(
    err(401, { error: { message: "Incorrect API key sk-live-abcdefghijklmnopqrstuvwxyz" } }),
    ctx,
  );
  strictEqual(auth.kind, "auth_mismatch");
  match(auth.hint!, /OPENAI_API_KEY/);
  ok(!auth.details!.includes("abcdefghijklmnop"));
  strictEqual(toProviderFailure(err(403, {}), ctx).kind, "auth_mismatch");
  strictEqual(
    toProviderFailure(err(404, { error: { message: "no such model" } }), ctx).kind,
    "model_not_found",
  );
  const rl = toProviderFailure(err(429, {}, { "retry-after": "7" }), ctx);
  deepStrictEqual([rl.kind, rl.retryable, rl.retryAfterMs], ["rate_limit", true, 7000]);
  strictEqual(
    toProviderFailure(err(429, { error: { type: "insufficient_quota" } }), ctx).kind,
    "quota_exhausted",
  );
  strictEqual(toProviderFailure(err(402, {}), ctx).kind, "quota_exhausted");
  const down = toProviderFailure(err(503, {}), ctx);
  deepStrictEqual([down.kind, down.retryable], ["provider_error", true]);
  const long = toProviderFailure(
    err(400, { error: { message: "This model's maximum context length is 8192" } }),
    ctx,
  );
  match(long.hint!, /Compress/);
});
