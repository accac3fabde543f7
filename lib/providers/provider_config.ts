// Which LLM endpoints this console can talk to, resolved from config.yaml (the original Hermes
// shape: `model`, `providers.<id>`, `custom_providers`) and the environment. Invariants: api
// keys never leave this module's results except to the provider adapter; every key resolved is
// registered with the logger as a secret; a missing provider is a value (`active: null` plus an
// `issue`), never an exception, so the console always starts.
import { type AppConfig, expandEnvRefs } from "../settings/config.ts";
import type { Logger } from "../log.ts";

/** One endpoint a chat turn can be sent to. */
export interface ProviderEndpoint {
  /** "openai" | "anthropic" | "openrouter" | "ollama" | "lmstudio" | "custom" | "custom:<name>" */
  id: string;
  protocol: "openai" | "anthropic" | "openai-compatible";
  label: string;
  baseUrl?: string;
  apiKey?: string;
  /** Models named in the config for this endpoint (the catalog may probe for more). */
  models: string[];
  /** Extra HTTP headers sent with every request to this endpoint (`headers:`, `${ENV}` expanded). */
  headers?: Record<string, string>;
  /** True when the config file names this endpoint; false when only detected (env key). */
  userConfigured: boolean;
}

export interface ResolvedProviders {
  active: ProviderEndpoint | null;
  activeProviderId: string | null;
  defaultModel: string | null;
  endpoints: ProviderEndpoint[];
  /** Why `active` is null (or unusable), in words a person can act on. */
  issue?: string;
  /**
   * Providers the config names (or the default model's `vendor/` prefix, when nothing else is
   * configured) that cannot be used for want of an api key: listed so the picker can say so.
   */
  unkeyed?: UnkeyedProvider[];
}

/** A provider chosen in the config that has no api key yet. */
export interface UnkeyedProvider {
  id: string;
  label: string;
  /** Where the key would come from (an environment variable name). */
  keyEnv: string;
  /** Model ids the config names for it (the default model first when it is the selected one). */
  models: string[];
}

/** Built-in providers: protocol, label, default base URL, env var for the key, default model. */
export const KNOWN_PROVIDERS: Record<string, {
  protocol: ProviderEndpoint["protocol"];
  label: string;
  baseUrl?: string;
  keyEnv?: string;
  needsKey: boolean;
  defaultModel?: string;
}> = {
  openai: {
    protocol: "openai",
    label: "OpenAI",
    keyEnv: "OPENAI_API_KEY",
    needsKey: true,
    defaultModel: "gpt-4o-mini",
  },
  anthropic: {
    protocol: "anthropic",
    label: "Anthropic",
    keyEnv: "ANTHROPIC_API_KEY",
    needsKey: true,
    defaultModel: "claude-sonnet-4-5",
  },
  openrouter: {
    protocol: "openai-compatible",
    label: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    keyEnv: "OPENROUTER_API_KEY",
    needsKey: true,
    defaultModel: "openai/gpt-4o-mini",
  },
  ollama: {
    protocol: "openai-compatible",
    label: "Ollama",
    baseUrl: "http://127.0.0.1:11434/v1",
    needsKey: false,
  },
  lmstudio: {
    protocol: "openai-compatible",
    label: "LM Studio",
    baseUrl: "http://127.0.0.1:1234/v1",
    needsKey: false,
  },
  custom: { protocol: "openai-compatible", label: "Custom", needsKey: false },
};

/** Example config text shown in `no_provider` hints. */
export function providerSetupHint(configPath: string): string {
  return `Set OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENROUTER_API_KEY in the environment, ` +
    `or add a provider to ${configPath}, e.g.\n` +
    `model:\n  provider: openrouter\n  default: openai/gpt-4o-mini\n  api_key: \${OPENROUTER_API_KEY}\n` +
    `or for a local server:\nmodel:\n  provider: custom\n  base_url: http://127.0.0.1:8080/v1\n  default: my-model`;
}

type Obj = Record<string, unknown>;
const asObj = (
  v: unknown,
): Obj => (v && typeof v === "object" && !Array.isArray(v) ? v as Obj : {});
const asStr = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
/** A `headers:` mapping: string-valued entries with `${ENV}` expanded; absent when empty. */
const asHeaders = (v: unknown, env: Readonly<Record<string, string>>) => {
  const entries = Object.entries(asObj(v)).filter(([k, h]) =>
    /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/.test(k) &&
    (typeof h === "string" || typeof h === "number")
  ).map(([k, h]) => [k, expandEnvRefs(String(h), env)] as const)
    .filter(([, h]) => h !== "" && !/[\r\n\0]/.test(h));
  return entries.length ? { headers: Object.fromEntries(entries) } : {};
};
const asStrList = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map((m) => typeof m === "string" ? m : asStr(asObj(m).id) ?? asStr(asObj(m).name))
      .filter((m): m is string => !!m)
    : [];

/**
 * Resolve every usable endpoint and the active one. `log` (when given) learns each api key
 * as a secret so it can never appear in a log line.
 */
export function resolveProviders(
  config: AppConfig,
  log?: Pick<Logger, "addSecret">,
): ResolvedProviders {
  const env = config.env;
  const file = config.file;
  const modelSection = typeof file.model === "string" ? { default: file.model } : asObj(file.model);
  const providersSection = asObj(file.providers);
  const expand = (v: unknown): string | undefined => {
    const s = asStr(v);
    if (s === undefined) return undefined;
    return asStr(expandEnvRefs(s, env));
  };
  const secret = (key: string | undefined) => {
    if (key) log?.addSecret(key);
    return key;
  };

  const endpoints: ProviderEndpoint[] = [];
  const missingKey = new Map<string, string>();
  const explicitProvider = asStr(modelSection.provider)?.toLowerCase();
  const modelBaseUrl = expand(modelSection.base_url);
  const modelApiKey = expand(modelSection.api_key);
  const activeId = explicitProvider ??
    (modelBaseUrl ? "custom" : undefined);

  for (const [id, known] of Object.entries(KNOWN_PROVIDERS)) {
    const section = asObj(providersSection[id]);
    const isActive = activeId === id;
    const inFile = id in providersSection || isActive;
    let baseUrl = expand(section.base_url) ?? known.baseUrl;
    let apiKey = expand(section.api_key) ??
      (section.key_env ? expand(env[String(section.key_env)]) : undefined);
    if (isActive) {
      baseUrl = modelBaseUrl ?? baseUrl;
      apiKey = modelApiKey ?? apiKey;
    }
    if (!apiKey && known.keyEnv) apiKey = asStr(env[known.keyEnv]);
    if (id === "custom" && !baseUrl) continue;
    if (!inFile && !apiKey) continue;
    if (!inFile && (id === "ollama" || id === "lmstudio")) continue;
    if (known.needsKey && !apiKey) {
      missingKey.set(id, known.keyEnv ?? "an api key");
      continue;
    }
    endpoints.push({
      id,
      protocol: known.protocol,
      label: known.label,
      ...(baseUrl ? { baseUrl } : {}),
      ...(apiKey ? { apiKey: secret(apiKey) } : {}),
      models: asStrList(section.models),
      ...asHeaders(section.headers, env),
      userConfigured: inFile,
    });
  }

  const customs = Array.isArray(file.custom_providers) ? file.custom_providers : [];
  for (const raw of customs) {
    const c = asObj(raw);
    const name = asStr(c.name);
    const baseUrl = expand(c.base_url);
    if (!name || !baseUrl) continue;
    const apiKey = expand(c.api_key) ??
      (asStr(c.key_env) ? asStr(env[String(c.key_env)]) : undefined);
    endpoints.push({
      id: `custom:${name}`,
      protocol: "openai-compatible",
      label: name,
      baseUrl,
      ...(apiKey ? { apiKey: secret(apiKey) } : {}),
      models: asStrList(c.models),
      ...asHeaders(c.headers, env),
      userConfigured: true,
    });
  }

  let active: ProviderEndpoint | null = null;
  let issue: string | undefined;
  if (activeId) {
    active = endpoints.find((e) => e.id === activeId) ?? null;
    if (!active) {
      issue = missingKey.has(activeId)
        ? `Provider "${activeId}" is selected in ${config.configPath} but has no api key: set ${
          missingKey.get(activeId)
        } or model.api_key.`
        : `Provider "${activeId}" is selected in ${config.configPath} but is not configured ` +
          `(unknown provider, or no base_url).`;
    }
  } else {
    active = ["anthropic", "openai", "openrouter"].map((id) => endpoints.find((e) => e.id === id))
      .find((e) => e !== undefined) ?? endpoints[0] ?? null;
    if (!active) issue = "No LLM provider is configured.";
  }

  const configuredDefault = config.defaultModel ?? asStr(modelSection.default);
  if (active && configuredDefault && !active.models.includes(configuredDefault)) {
    active.models.unshift(configuredDefault);
  }
  const defaultModel = configuredDefault ?? active?.models[0] ??
    (active ? KNOWN_PROVIDERS[active.id]?.defaultModel : undefined) ?? null;

  const unkeyed: UnkeyedProvider[] = [...missingKey].map(([id, keyEnv]) => ({
    id,
    label: KNOWN_PROVIDERS[id].label,
    keyEnv,
    models: [
      ...(id === activeId && configuredDefault ? [configuredDefault] : []),
      ...asStrList(asObj(providersSection[id]).models),
    ],
  }));
  // Only a default model like "openai/gpt-4o" says which provider is meant: name it too.
  const vendor = configuredDefault?.split("/", 1)[0].toLowerCase();
  if (
    endpoints.length === 0 && unkeyed.length === 0 && vendor && vendor !== configuredDefault &&
    KNOWN_PROVIDERS[vendor]?.needsKey
  ) {
    const known = KNOWN_PROVIDERS[vendor];
    unkeyed.push({
      id: vendor,
      label: known.label,
      keyEnv: known.keyEnv ?? "an api key",
      models: [configuredDefault!],
    });
  }

  return {
    active,
    activeProviderId: active?.id ?? null,
    defaultModel,
    endpoints,
    ...(issue ? { issue } : {}),
    ...(unkeyed.length ? { unkeyed } : {}),
  };
}

/**
 * The endpoint a turn should use: the requested provider id when given (null when that one is
 * not usable: a model id meant for one vendor must never be sent to another), else the active.
 */
export function pickEndpoint(
  resolved: ResolvedProviders,
  providerId: string | null | undefined,
): ProviderEndpoint | null {
  if (providerId) return resolved.endpoints.find((e) => e.id === providerId) ?? null;
  return resolved.active;
}

/** An endpoint without its api key, safe to return from an API or log. */
export function publicEndpoint(e: ProviderEndpoint): Omit<ProviderEndpoint, "apiKey"> & {
  has_api_key: boolean;
} {
  const { apiKey, ...rest } = e;
  return { ...rest, has_api_key: !!apiKey };
}
