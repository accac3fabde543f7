// How many tokens a model can read at once, so the engine knows when to compress a long
// conversation before the provider refuses it. Lookup order: config override, table, default.
// Invariant: always a positive number; an unknown model gets a conservative default.
import { lookupByPrefix } from "./pricing.ts";

/** Used for models we know nothing about (most local models run with ≥ 32k today). */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "gpt-4o": 128_000,
  "gpt-4o-mini": 128_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.1-mini": 1_047_576,
  "gpt-4.1-nano": 1_047_576,
  "gpt-5": 400_000,
  "o3": 200_000,
  "o3-mini": 200_000,
  "o4-mini": 200_000,
  "claude": 200_000,
  "claude-sonnet-4": 200_000,
  "gemini": 1_048_576,
  "deepseek": 128_000,
  "llama3": 8_192,
  "llama3.1": 131_072,
  "llama3.2": 131_072,
  "llama-3.1": 131_072,
  "llama-3.3": 131_072,
  "qwen2.5": 32_768,
  "qwen3": 40_960,
  "mistral": 32_768,
  "gemma3": 131_072,
};

/**
 * The context window of `model`. `overrides` come from config.yaml
 * (`model.context_length`, `context_windows: {model: n}`).
 */
export function contextWindowFor(
  model: string,
  overrides: Readonly<Record<string, number>> = {},
): number {
  const o = overrides[model];
  if (typeof o === "number" && o > 0) return o;
  return lookupByPrefix(CONTEXT_WINDOWS, model) ?? DEFAULT_CONTEXT_WINDOW;
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

/** A rough token count for text (≈4 characters per token), used before the provider reports. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
