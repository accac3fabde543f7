// What a turn cost, where the price is known. Prices are USD per million tokens, matched by
// model id after dropping a vendor prefix ("openai/…") and a date suffix ("-20250514").
// Invariant: an unknown price is `null` (shown as "—"), never 0 — a guess would lie in totals.

export interface ModelPrice {
  /** USD per 1M uncached input tokens. */
  input: number;
  /** USD per 1M output tokens (reasoning included). */
  output: number;
  /** USD per 1M cached input tokens read (defaults to `input`). */
  cached?: number;
}

/** Longest matching prefix wins, so "gpt-4o-mini" is not priced as "gpt-4o". */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  "gpt-4o": { input: 2.5, output: 10, cached: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cached: 0.075 },
  "gpt-4.1": { input: 2, output: 8, cached: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cached: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cached: 0.025 },
  "gpt-5": { input: 1.25, output: 10, cached: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cached: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cached: 0.005 },
  "o3": { input: 2, output: 8, cached: 0.5 },
  "o3-mini": { input: 1.1, output: 4.4, cached: 0.55 },
  "o4-mini": { input: 1.1, output: 4.4, cached: 0.275 },
  "claude-opus-4": { input: 15, output: 75, cached: 1.5 },
  "claude-opus-4-5": { input: 5, output: 25, cached: 0.5 },
  "claude-sonnet-4": { input: 3, output: 15, cached: 0.3 },
  "claude-3-7-sonnet": { input: 3, output: 15, cached: 0.3 },
  "claude-3-5-sonnet": { input: 3, output: 15, cached: 0.3 },
  "claude-haiku-4-5": { input: 1, output: 5, cached: 0.1 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cached: 0.08 },
  "claude-3-haiku": { input: 0.25, output: 1.25, cached: 0.03 },
  "deepseek-chat": { input: 0.27, output: 1.1, cached: 0.07 },
  "deepseek-reasoner": { input: 0.55, output: 2.19, cached: 0.14 },
};

/** Normalize a model id for price and context-window lookups. */
export function canonicalModelId(model: string): string {
  let id = model.trim().toLowerCase();
  const slash = id.lastIndexOf("/");
  if (slash >= 0) id = id.slice(slash + 1);
  id = id.replace(/:.*$/, ""); // OpenRouter variants (":free", ":beta"), Ollama tags
  id = id.replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, "");
  // "claude-sonnet-4.5" → "claude-sonnet-4-5"
  return id.replace(/(\d)\.(\d)/g, "$1-$2").replace(/^gpt-4-1/, "gpt-4.1");
}

/** The longest key of `table` that prefixes the canonical id (at a word boundary), if any. */
export function lookupByPrefix<T>(
  table: Readonly<Record<string, T>>,
  model: string,
): T | undefined {
  const id = canonicalModelId(model);
  let best: string | undefined;
  let bestLen = -1;
  for (const key of Object.keys(table)) {
    const k = canonicalModelId(key);
    if (id === k || (id.startsWith(k) && /[-.]/.test(id[k.length]))) {
      if (k.length > bestLen) [best, bestLen] = [key, k.length];
    }
  }
  return best === undefined ? undefined : table[best];
}

/** The price of a model: a config override first (`pricing:` in config.yaml), then the table. */
export function priceFor(
  model: string,
  overrides: Readonly<Record<string, ModelPrice>> = {},
): ModelPrice | null {
  if (overrides[model]) return overrides[model];
  return lookupByPrefix(PRICES, model) ?? null;
}

/**
 * Estimated cost in USD of one call, or null when the price is unknown. `inputTokens`
 * includes the cached ones (the SDK reports totals), which are billed at the cached rate.
 */
export function estimateCost(
  model: string,
  usage: { inputTokens: number; outputTokens: number; cachedTokens?: number },
  overrides?: Readonly<Record<string, ModelPrice>>,
): number | null {
  const price = priceFor(model, overrides);
  if (!price) return null;
  const cached = Math.min(usage.cachedTokens ?? 0, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  const cost = (fresh * price.input + cached * (price.cached ?? price.input) +
    usage.outputTokens * price.output) / 1_000_000;
  return Math.round(cost * 1e8) / 1e8;
}

/** Parse the optional `pricing:` section of config.yaml ({model: {input, output, cached?}}). */
export function pricingOverrides(file: Record<string, unknown>): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = {};
  const section = file.pricing;
  if (!section || typeof section !== "object") return out;
  for (const [model, raw] of Object.entries(section as Record<string, unknown>)) {
    const p = raw as Record<string, unknown>;
    if (p && typeof p.input === "number" && typeof p.output === "number") {
      out[model] = {
        input: p.input,
        output: p.output,
        ...(typeof p.cached === "number" ? { cached: p.cached } : {}),
      };
    }
  }
  return out;
}
