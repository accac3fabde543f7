import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { loadConfig } from "../lib/settings/config.ts";
import {
  parseModelList,
  planProbeTargets,
  type ProbeTarget,
  runProbe,
} from "../lib/models/model_probes.ts";
import { resolveProviders } from "../lib/providers/provider_config.ts";

async function resolved(yaml: string, env: Record<string, string> = {}) {
  const root = await Deno.makeTempDir({ prefix: "hermes-probes-" });
  const configPath = join(root, "config.yaml");
  await Deno.writeTextFile(configPath, yaml);
  const config = loadConfig({ HOME: root, HERMES_CONFIG_PATH: configPath, ...env });
  await Deno.remove(root, { recursive: true });
  return resolveProviders(config);
}

Deno.test("planProbeTargets() orders the serial chain: active, named customs, Ollama, LM Studio", async () => {
  const r = await resolved(
    `model: {provider: custom, base_url: "http://10.0.0.1:8000/v1/"}\n` +
      `providers:\n  lmstudio: {base_url: "http://10.0.0.2:1234/v1"}\n` +
      `  ollama: {base_url: "http://10.0.0.3:11434/v1"}\n` +
      `custom_providers:\n  - {name: zeta, base_url: "http://10.0.0.4/v1"}\n` +
      `  - {name: alpha, base_url: "http://10.0.0.5/v1?team=a", api_key: sk-a}\n`,
    { ANTHROPIC_API_KEY: "sk-ant", OPENROUTER_API_KEY: "sk-or" },
  );
  const targets = planProbeTargets(r);
  deepStrictEqual(
    targets.map((t) => [t.providerId, t.serial, t.url]),
    [
      ["custom", true, "http://10.0.0.1:8000/v1/models"],
      ["custom:zeta", true, "http://10.0.0.4/v1/models"],
      ["custom:alpha", true, "http://10.0.0.5/v1/models?team=a"],
      ["ollama", true, "http://10.0.0.3:11434/api/tags"],
      ["lmstudio", true, "http://10.0.0.2:1234/v1/models"],
      ["anthropic", false, "https://api.anthropic.com/v1/models?limit=1000"],
      ["openrouter", false, "https://openrouter.ai/api/v1/models"],
    ],
  );
  const byId = new Map(targets.map((t) => [t.providerId, t]));
  deepStrictEqual(byId.get("anthropic")!.headers, {
    accept: "application/json",
    "x-api-key": "sk-ant",
    "anthropic-version": "2023-06-01",
  });
  strictEqual(byId.get("custom:alpha")!.headers.authorization, "Bearer sk-a");
  strictEqual(byId.get("anthropic")!.allowPrivate, false, "detected from the environment only");
  strictEqual(byId.get("custom")!.allowPrivate, true);
});

const t = (kind: ProbeTarget["kind"], providerId: string = kind): ProbeTarget => ({
  providerId,
  kind,
  url: "http://10.0.0.1/v1/models",
  headers: {},
  allowPrivate: true,
  serial: true,
});

Deno.test("parseModelList() reads each provider's list format", () => {
  deepStrictEqual(
    parseModelList(t("ollama"), {
      models: [{ name: "llama3.1:8b", model: "llama3.1:8b" }, { name: "nomic-embed-text:latest" }],
    }).map((m) => [m.id, m.context_window, m.supports_tools]),
    [["llama3.1:8b", 131_072, true], ["nomic-embed-text:latest", undefined, undefined]],
  );
  deepStrictEqual(
    parseModelList(t("anthropic"), {
      data: [{
        id: "claude-sonnet-4-5-20250929",
        display_name: "Claude Sonnet 4.5",
        type: "model",
      }],
      has_more: false,
    }),
    [{
      id: "claude-sonnet-4-5-20250929",
      label: "Claude Sonnet 4.5",
      context_window: 200_000,
      supports_tools: true,
      supports_vision: true,
    }],
  );
  deepStrictEqual(
    parseModelList(t("openrouter"), {
      data: [{
        id: "acme/vision-1",
        name: "Acme: Vision 1",
        context_length: 65_536,
        architecture: { input_modalities: ["text", "image"] },
        supported_parameters: ["temperature"],
      }],
    }),
    [{
      id: "acme/vision-1",
      label: "Acme: Vision 1",
      context_window: 65_536,
      supports_tools: false,
      supports_vision: true,
    }],
  );
  // OpenAI's own list: only chat models; a custom endpoint's list is kept whole.
  const openai = {
    data: ["gpt-4o", "text-embedding-3-small", "whisper-1", "o3", "gpt-4o-realtime-preview"].map((
      id,
    ) => ({ id })),
  };
  deepStrictEqual(parseModelList(t("openai"), openai).map((m) => m.id), ["gpt-4o", "o3"]);
  strictEqual(parseModelList(t("openai", "custom"), openai).length, 5);
  // vLLM reports its context length as max_model_len.
  strictEqual(
    parseModelList(t("openai", "custom"), { data: [{ id: "x", max_model_len: 8192 }] })[0]
      .context_window,
    8192,
  );
});

Deno.test("runProbe() explains failures without revealing the api key", async () => {
  const target: ProbeTarget = {
    ...t("openai", "custom"),
    url: "http://10.0.0.1/v1/models?key=sk-secret",
    headers: { authorization: "Bearer sk-secret" },
  };
  const io = (res: Response) => ({ fetch: (() => Promise.resolve(res)) as typeof fetch });
  const denied = await runProbe(
    target,
    io(new Response("no", { status: 401 })),
    new AbortController().signal,
  );
  deepStrictEqual(denied, {
    status: "error",
    error: "http://10.0.0.1/v1/models answered HTTP 401 (check the api key)",
    unreachable: false,
  });
  const html = await runProbe(target, io(new Response("<html>")), new AbortController().signal);
  ok(html.status === "error" && /did not answer with a model list/.test(html.error));
  ok(!JSON.stringify([denied, html]).includes("sk-secret"));
});
