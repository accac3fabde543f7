// What is known about models without asking the network: the hosted providers' well-known chat
// models (the picker's fallback, with context window and capabilities), open-weight families
// matched by id prefix, and how many tokens a model can read at once (so the engine compresses
// before a provider refuses). Invariant: pure data plus lookups; no I/O; a context window is
// always a positive number (unknown models get a conservative default).
import { lookupByPrefix } from "../providers/pricing.ts";

/** One model as the picker shows it (the `/api/models` wire shape). */
export interface ModelInfo {
  id: string;
  label: string;
  context_window?: number;
  supports_tools?: boolean;
  supports_vision?: boolean;
}

const m = (
  id: string,
  label: string,
  context_window?: number,
  supports_tools?: boolean,
  supports_vision?: boolean,
): ModelInfo => ({
  id,
  label,
  ...(context_window ? { context_window } : {}),
  ...(supports_tools !== undefined ? { supports_tools } : {}),
  ...(supports_vision !== undefined ? { supports_vision } : {}),
});

/** The hosted providers' well-known chat models, newest first. */
export const STATIC_MODELS: Readonly<Record<string, readonly ModelInfo[]>> = {
  openai: [
    m("gpt-5", "GPT-5", 400_000, true, true),
    m("gpt-5-mini", "GPT-5 mini", 400_000, true, true),
    m("gpt-5-nano", "GPT-5 nano", 400_000, true, true),
    m("gpt-4.1", "GPT-4.1", 1_047_576, true, true),
    m("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, true, true),
    m("gpt-4.1-nano", "GPT-4.1 nano", 1_047_576, true, true),
    m("gpt-4o", "GPT-4o", 128_000, true, true),
    m("gpt-4o-mini", "GPT-4o mini", 128_000, true, true),
    m("o3", "o3", 200_000, true, true),
    m("o4-mini", "o4-mini", 200_000, true, true),
    m("o3-mini", "o3-mini", 200_000, true, false),
    m("o1", "o1", 200_000, true, true),
  ],
  anthropic: [
    m("claude-opus-4-5", "Claude Opus 4.5", 200_000, true, true),
    m("claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000, true, true),
    m("claude-haiku-4-5", "Claude Haiku 4.5", 200_000, true, true),
    m("claude-opus-4-1", "Claude Opus 4.1", 200_000, true, true),
    m("claude-opus-4-0", "Claude Opus 4", 200_000, true, true),
    m("claude-sonnet-4-0", "Claude Sonnet 4", 200_000, true, true),
    m("claude-3-7-sonnet-latest", "Claude Sonnet 3.7", 200_000, true, true),
    m("claude-3-5-haiku-latest", "Claude Haiku 3.5", 200_000, true),
  ],
  openrouter: [
    m("openai/gpt-5", "OpenAI: GPT-5", 400_000, true, true),
    m("openai/gpt-4.1", "OpenAI: GPT-4.1", 1_047_576, true, true),
    m("openai/gpt-4o", "OpenAI: GPT-4o", 128_000, true, true),
    m("openai/gpt-4o-mini", "OpenAI: GPT-4o-mini", 128_000, true, true),
    m("anthropic/claude-sonnet-4.5", "Anthropic: Claude Sonnet 4.5", 200_000, true, true),
    m("anthropic/claude-opus-4.1", "Anthropic: Claude Opus 4.1", 200_000, true, true),
    m("anthropic/claude-haiku-4.5", "Anthropic: Claude Haiku 4.5", 200_000, true, true),
    m("google/gemini-2.5-pro", "Google: Gemini 2.5 Pro", 1_048_576, true, true),
    m("google/gemini-2.5-flash", "Google: Gemini 2.5 Flash", 1_048_576, true, true),
    m("x-ai/grok-4", "xAI: Grok 4", 256_000, true, true),
    m("meta-llama/llama-3.3-70b-instruct", "Meta: Llama 3.3 70B Instruct", 131_072, true, false),
    m("deepseek/deepseek-chat", "DeepSeek: DeepSeek V3", undefined, true, false),
  ],
};

/** Open-weight families served by Ollama / LM Studio / vLLM, matched by id prefix. */
const LOCAL_FAMILIES: ReadonlyArray<[prefix: string, info: Omit<ModelInfo, "id" | "label">]> = [
  ["llama3.3", { context_window: 131_072, supports_tools: true, supports_vision: false }],
  ["llama3.2-vision", { context_window: 131_072, supports_vision: true }],
  ["llama3.2", { context_window: 131_072, supports_tools: true, supports_vision: false }],
  ["llama3.1", { context_window: 131_072, supports_tools: true, supports_vision: false }],
  ["qwen3", { context_window: 40_960, supports_tools: true }],
  ["qwen2.5-coder", { context_window: 32_768, supports_tools: true }],
  ["qwen2.5", { context_window: 32_768, supports_tools: true }],
  ["mistral-nemo", { context_window: 131_072, supports_tools: true }],
  ["mistral", { context_window: 32_768, supports_tools: true }],
  ["gemma3", { context_window: 131_072, supports_vision: true }],
  ["llava", { supports_vision: true }],
];

const BY_ID = new Map<string, ModelInfo>();
for (const list of Object.values(STATIC_MODELS)) {
  for (const info of list) if (!BY_ID.has(info.id)) BY_ID.set(info.id, info);
}

/** The static models of a provider id ("openai", "anthropic", "openrouter"; [] for others). */
export function staticModelsFor(providerId: string): readonly ModelInfo[] {
  return STATIC_MODELS[providerId] ?? [];
}

/**
 * What is known about a model id from any source id form: exact, dated (`…-20250929`),
 * vendor-prefixed (`anthropic/claude-sonnet-4.5`), dotted/dashed versions, or an Ollama tag
 * (`llama3.1:8b` → the llama3.1 family). Undefined when nothing is known: callers then show
 * the bare id, never a guess.
 */
export function lookupModelInfo(id: string): ModelInfo | undefined {
  const exact = BY_ID.get(id);
  if (exact) return exact;
  const bare = id.includes("/") ? id.slice(id.lastIndexOf("/") + 1) : id;
  const undated = bare.replace(/-\d{8}$/, "");
  const candidates = [
    bare,
    undated,
    `${undated}-0`,
    `${undated}-latest`,
    undated.replace(/\./g, "-"),
  ];
  for (const c of candidates) {
    const hit = BY_ID.get(c);
    if (hit) return { ...hit, id };
  }
  const family = bare.toLowerCase().split(":")[0];
  for (const [prefix, info] of LOCAL_FAMILIES) {
    if (family === prefix || family.startsWith(prefix + "-")) {
      return { id, label: id, ...info };
    }
  }
  return undefined;
}

/** Used for models we know nothing about (most local models run with ≥ 32k today). */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/**
 * Context windows by id prefix, for ids the model list above does not know (dated or vendor
 * variants, other families). The longest matching prefix wins.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "gpt-4o": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-5": 400_000,
  "o3": 200_000,
  "o4-mini": 200_000,
  "claude": 200_000,
  "gemini": 1_048_576,
  "deepseek": 128_000,
  "llama3": 8_192,
  "llama-3.1": 131_072,
  "llama-3.3": 131_072,
  "qwen2.5": 32_768,
  "qwen3": 40_960,
  "mistral": 32_768,
  "gemma3": 131_072,
};

/**
 * The context window of `model`: config override, the model list, the prefix table, the default.
 * `overrides` come from config.yaml
 * (`model.context_length`, `context_windows: {model: n}`).
 */
export function contextWindowFor(
  model: string,
  overrides: Readonly<Record<string, number>> = {},
): number {
  const o = overrides[model];
  if (typeof o === "number" && o > 0) return o;
  return lookupModelInfo(model)?.context_window ?? lookupByPrefix(CONTEXT_WINDOWS, model) ??
    DEFAULT_CONTEXT_WINDOW;
}

/** Read context-window overrides from the parsed config file. */
export function contextWindowOverrides(file: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  const section = file.context_windows;
  if (section && typeof section === "object") {
    for (const [k, v] of Object.entries(section as Record<string, unknown>)) {
      if (typeof v === "number" && v > 0) out[k] = v;
    }
  }
  const model = file.model as Record<string, unknown> | undefined;
  if (model && typeof model === "object" && typeof model.default === "string") {
    const n = Number(model.context_length ?? model.context_window);
    if (Number.isFinite(n) && n > 0) out[model.default] = n;
  }
  return out;
}
