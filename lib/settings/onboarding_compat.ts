// The original Hermes WebUI's onboarding contract on top of lib/settings/onboarding.ts: the
// status shape ({completed, settings, system{chat_ready, setup_state…}, setup, workspaces}),
// POST /api/onboarding/setup (config.yaml + the `.env` key the original writes) and the probe's
// structured outcome codes. Invariants: an existing config is never overwritten without
// `confirm_overwrite`; keys never appear in an answer; every probe goes through the guarded
// probeEndpoint; a failed probe is an answer (`ok:false` + the `error` code), never an HTTP error.
import { z } from "zod";
import type { AppContext } from "../server/app_context.ts";
import { ValidationError } from "../errors.ts";
import { type AppConfig, ConfigError } from "./config.ts";
import { KNOWN_PROVIDERS, resolveProviders } from "../providers/provider_config.ts";
import { isMaskedSecret } from "../security/secrets.ts";
import { authEnabled } from "../security/auth.ts";
import { envFilePath, readEnvFile, updateEnvFile } from "./env_file.ts";
import {
  effectiveProbeKey,
  type OnboardingProvider,
  onboardingStatus,
  probeEndpoint,
  writeProviderConfig,
} from "./onboarding.ts";
import { readPreferences, readStoredSettings, updateSettings } from "./settings.ts";
import { lastWorkspace, listWorkspaces } from "../workspace/workspaces.ts";

/** The original's `setup_state` values. */
export const SETUP_STATES = [
  "agent_unavailable",
  "needs_provider",
  "provider_incomplete",
  "ready",
] as const;
export type SetupState = typeof SETUP_STATES[number];

interface SetupProvider {
  label: string;
  env_var: string;
  default_model: string;
  default_base_url?: string;
  requires_base_url: boolean;
  category: "easy_start" | "self_hosted" | "specialized";
  quick?: boolean;
  /** How this console runs it: a built-in provider id (specialized ones are OpenAI-compatible). */
  runs_as: OnboardingProvider;
  needs_key: boolean;
}

/** The providers the original's setup accepts, with the env var it stores each key under. */
export const SETUP_PROVIDERS: Readonly<Record<string, SetupProvider>> = {
  openrouter: {
    label: "OpenRouter",
    env_var: "OPENROUTER_API_KEY",
    default_model: "anthropic/claude-sonnet-4.6",
    requires_base_url: false,
    category: "easy_start",
    quick: true,
    runs_as: "openrouter",
    needs_key: true,
  },
  anthropic: {
    label: "Anthropic",
    env_var: "ANTHROPIC_API_KEY",
    default_model: "claude-sonnet-4-5",
    requires_base_url: false,
    category: "easy_start",
    runs_as: "anthropic",
    needs_key: true,
  },
  openai: {
    label: "OpenAI",
    env_var: "OPENAI_API_KEY",
    default_model: "gpt-4o",
    default_base_url: "https://api.openai.com/v1",
    requires_base_url: false,
    category: "easy_start",
    runs_as: "openai",
    needs_key: true,
  },
  ollama: {
    label: "Ollama",
    env_var: "OLLAMA_API_KEY",
    default_model: "qwen3:32b",
    default_base_url: "http://localhost:11434/v1",
    requires_base_url: true,
    category: "self_hosted",
    runs_as: "ollama",
    needs_key: false,
  },
  lmstudio: {
    label: "LM Studio",
    env_var: "LMSTUDIO_API_KEY",
    default_model: "gpt-4o-mini",
    default_base_url: "http://localhost:1234/v1",
    requires_base_url: true,
    category: "self_hosted",
    runs_as: "lmstudio",
    needs_key: false,
  },
  custom: {
    label: "Custom OpenAI-compatible",
    env_var: "OPENAI_API_KEY",
    default_model: "gpt-4o-mini",
    requires_base_url: true,
    category: "self_hosted",
    runs_as: "custom",
    needs_key: false,
  },
  gemini: {
    label: "Google Gemini",
    env_var: "GOOGLE_API_KEY",
    default_model: "gemini-2.5-pro",
    default_base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
    requires_base_url: false,
    category: "specialized",
    runs_as: "custom",
    needs_key: true,
  },
  deepseek: {
    label: "DeepSeek",
    env_var: "DEEPSEEK_API_KEY",
    default_model: "deepseek-chat",
    default_base_url: "https://api.deepseek.com",
    requires_base_url: false,
    category: "specialized",
    runs_as: "custom",
    needs_key: true,
  },
  mistralai: {
    label: "Mistral",
    env_var: "MISTRAL_API_KEY",
    default_model: "mistral-large-latest",
    default_base_url: "https://api.mistral.ai/v1",
    requires_base_url: false,
    category: "specialized",
    runs_as: "custom",
    needs_key: true,
  },
  "x-ai": {
    label: "xAI (Grok)",
    env_var: "XAI_API_KEY",
    default_model: "grok-4",
    default_base_url: "https://api.x.ai/v1",
    requires_base_url: false,
    category: "specialized",
    runs_as: "custom",
    needs_key: true,
  },
};

const CATEGORIES = [
  { id: "easy_start", label: "Easy start" },
  { id: "self_hosted", label: "Open / self-hosted" },
  { id: "specialized", label: "Specialized" },
] as const;

type Obj = Record<string, unknown>;
const asObj = (
  v: unknown,
): Obj => (v && typeof v === "object" && !Array.isArray(v) ? v as Obj : {});
const asText = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const trimSlash = (u: string) => u.trim().replace(/\/+$/, "");

/** What config.yaml says about the model, as the original reads it. */
function currentSelection(file: Obj) {
  const model = file.model;
  if (typeof model === "string") return { provider: "", model: model.trim(), baseUrl: "" };
  const m = asObj(model);
  return {
    provider: asText(m.provider).toLowerCase(),
    model: asText(m.default),
    baseUrl: trimSlash(asText(m.base_url)),
  };
}

async function fileExists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

const skipRequested = (env: Readonly<Record<string, string>>) =>
  /^(1|true|yes|on)$/i.test(env.HERMES_WEBUI_SKIP_ONBOARDING ?? "");

/** The runtime part of the original's `system` block. */
function runtimeStatus(app: AppContext) {
  const cur = currentSelection(app.config.file);
  const resolved = resolveProviders(app.config);
  const providerConfigured = !!(cur.provider && cur.model) || resolved.active !== null;
  const providerReady = resolved.active !== null;
  const chatReady = providerReady;
  const label = (id: string | null) =>
    (id && (SETUP_PROVIDERS[id]?.label ?? KNOWN_PROVIDERS[id]?.label)) || id || "Hermes";
  let state: SetupState;
  let note: string;
  if (chatReady) {
    state = "ready";
    note = `Hermes is minimally configured and ready to chat via ${
      label(resolved.activeProviderId)
    }.`;
  } else if (providerConfigured) {
    state = "provider_incomplete";
    note = cur.provider === "custom" && !cur.baseUrl
      ? "Hermes has a saved provider/model selection but still needs the base URL and API key required to chat."
      : "Hermes has a saved provider/model selection but still needs the API key required to chat.";
  } else {
    state = "needs_provider";
    note = "Choose a provider and save working credentials to start chatting.";
  }
  return {
    provider_configured: providerConfigured,
    provider_ready: providerReady,
    chat_ready: chatReady,
    setup_state: state,
    provider_note: note,
    current_provider: cur.provider || resolved.activeProviderId || null,
    current_model: cur.model || resolved.defaultModel || null,
    current_base_url: cur.baseUrl || null,
    env_path: envFilePath(app.config.configPath),
  };
}

/** The wizard catalog the original returns under `setup`. */
function setupCatalog(app: AppContext) {
  const cur = currentSelection(app.config.file);
  const providers = Object.entries(SETUP_PROVIDERS).map(([id, p]) => ({
    id,
    label: p.label,
    env_var: p.env_var,
    default_model: p.default_model,
    default_base_url: p.default_base_url ?? "",
    requires_base_url: p.requires_base_url,
    models: [] as Array<{ id: string; label: string }>,
    category: p.category,
    quick: p.quick ?? false,
  }));
  const current = cur.provider || "openrouter";
  return {
    providers,
    categories: CATEGORIES.map((c) => ({
      ...c,
      providers: providers.filter((p) => p.category === c.id).map((p) => p.id),
    })),
    unsupported_note:
      "OAuth provider flows (Nous Portal, OpenAI Codex, GitHub Copilot) are not offered here; " +
      "configure them in config.yaml.",
    current_is_oauth: !!cur.provider && !(cur.provider in SETUP_PROVIDERS),
    current: {
      provider: current,
      model: cur.model || SETUP_PROVIDERS[current]?.default_model || "",
      base_url: cur.baseUrl,
    },
  };
}

/** What config.yaml and its `.env` held when each live config last followed them. */
const followed = new WeakMap<AppConfig, string>();

/**
 * Take up a config.yaml or `.env` written by hand (or by the Hermes CLI) since the console last
 * read them, so the status speaks of the files as they are now: an existing Hermes home that can
 * chat skips the wizard without a restart. A malformed file is left to `config_error`.
 */
async function followFilesOnDisk(app: AppContext): Promise<void> {
  const read = (path: string) => Deno.readTextFile(path).catch(() => "");
  const path = app.config.configPath;
  const seen = `${await read(path)}\0${await read(envFilePath(path))}`;
  if (followed.get(app.config) === seen) return;
  try {
    await app.reloadConfig();
    followed.set(app.config, seen);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
  }
}

/**
 * GET /api/onboarding/status: the console's wizard fields (onboarding.ts) plus the original's
 * shape. `completed` is the stored flag, HERMES_WEBUI_SKIP_ONBOARDING, or an existing config
 * that can already chat (then the flag is persisted so a later hiccup never re-opens the wizard).
 */
export async function compatOnboardingStatus(app: AppContext) {
  await followFilesOnDisk(app);
  const base = await onboardingStatus(app);
  const runtime = runtimeStatus(app);
  const configExists = await fileExists(app.config.configPath);
  let stored = (await readStoredSettings(app.db)).onboarding_completed;
  if (!stored && configExists && runtime.chat_ready) {
    await updateSettings(app, { onboarding_completed: true });
    stored = true;
  }
  const prefs = await readPreferences(app.db);
  const passwordEnabled = await authEnabled(app.security);
  return {
    ...base,
    completed: stored || skipRequested(app.config.env),
    settings: {
      default_model: base.default_model,
      default_workspace: app.config.defaultWorkspace,
      password_enabled: passwordEnabled,
      bot_name: prefs.bot_name,
    },
    system: {
      hermes_found: true,
      imports_ok: true,
      missing_modules: [] as string[],
      import_errors: {} as Record<string, string>,
      config_path: app.config.configPath,
      config_exists: configExists,
      config_error: base.config_error,
      ...runtime,
    },
    setup: setupCatalog(app),
    workspaces: { items: await listWorkspaces(app), last: await lastWorkspace(app) },
  };
}

const keyText = z.string().trim().max(4096).refine(
  (v) => !/[\r\n\0]/.test(v),
  "API key must not contain newline characters",
).refine(
  (v) => v === "" || isMaskedSecret(v) || /^[\x21-\x7e]+$/.test(v),
  "must be an API key (printable ASCII without spaces)",
);

/** POST /api/onboarding/setup, the original's body. */
export const SetupBody = z.object({
  provider: z.string().trim().toLowerCase().max(64),
  model: z.string().trim().max(256).optional().default(""),
  api_key: keyText.nullable().optional(),
  base_url: z.string().trim().max(2048).nullable().optional(),
  confirm_overwrite: z.boolean().optional(),
});
export type SetupBody = z.infer<typeof SetupBody>;

/**
 * Apply the original's onboarding setup: write `model: {provider, default, base_url}` to
 * config.yaml (comment-keeping writer) and the key to `.env` under the provider's env var.
 * An existing config without `confirm_overwrite` is left as it is and answered (200, as the
 * original) with `{error: "config_exists", requires_confirm: true}`; a provider that needs a
 * base URL without one, or a key nowhere to be found, is a 400.
 */
export async function applyOnboardingSetup(app: AppContext, body: SetupBody) {
  if (skipRequested(app.config.env)) {
    await updateSettings(app, { onboarding_completed: true });
    return await compatOnboardingStatus(app);
  }
  const meta = SETUP_PROVIDERS[body.provider];
  if (!meta) {
    // The original lets providers set up elsewhere (OAuth flows) through untouched.
    await updateSettings(app, { onboarding_completed: true });
    return await compatOnboardingStatus(app);
  }
  if (!body.model) throw new ValidationError("model is required", "model");
  let baseUrl = trimSlash(body.base_url ?? "");
  if (meta.requires_base_url) {
    if (!baseUrl) {
      throw new ValidationError(
        `base_url is required for ${meta.label} endpoints`,
        "base_url",
      );
    }
  } else if (!baseUrl && meta.runs_as === "custom") baseUrl = meta.default_base_url ?? "";
  if (baseUrl) {
    let ok = false;
    try {
      ok = ["http:", "https:"].includes(new URL(baseUrl).protocol);
    } catch { /* not a URL */ }
    if (!ok) throw new ValidationError("base_url must start with http:// or https://", "base_url");
  }
  if (await fileExists(app.config.configPath) && !body.confirm_overwrite) {
    // The original answers this refusal with a 200 its wizard reads to ask for confirmation.
    return {
      ok: false,
      error: "config_exists",
      message:
        "Hermes is already configured (config.yaml exists). Pass confirm_overwrite=true to overwrite it.",
      requires_confirm: true,
    };
  }
  const apiKey = body.api_key && !isMaskedSecret(body.api_key) ? body.api_key : "";
  const envPath = envFilePath(app.config.configPath);
  if (meta.needs_key && !apiKey) {
    const inEnvFile = !!(await readEnvFile(envPath))[meta.env_var];
    const inEnv = !!app.config.env[meta.env_var]?.trim();
    if (!inEnvFile && !inEnv) throw new ValidationError(`${meta.env_var} is required`, "api_key");
  }
  if (apiKey) app.log.addSecret(apiKey);
  const model = (meta.runs_as === "openai" || meta.runs_as === "anthropic") &&
      body.model.startsWith(`${meta.runs_as}/`)
    ? body.model.slice(meta.runs_as.length + 1)
    : body.model;
  // The key goes into `.env` (the original's home for it) and, so this console — which reads
  // no `.env` — can use it after a restart too, into the config the same way the wizard does.
  const envKey = apiKey || (await readEnvFile(envPath))[meta.env_var] || undefined;
  await writeProviderConfig(app.config, {
    provider: meta.runs_as,
    model,
    base_url: baseUrl || (meta.runs_as === "openai" ? meta.default_base_url : undefined),
    api_key: envKey,
  });
  if (apiKey) await updateEnvFile(envPath, { [meta.env_var]: apiKey });
  await updateSettings(app, { default_model: null });
  await app.reloadConfig();
  return await compatOnboardingStatus(app);
}

/** POST /api/onboarding/probe, the original's body (every field optional). */
export const CompatProbeBody = z.object({
  provider: z.string().trim().toLowerCase().max(64).optional(),
  base_url: z.string().max(2048).nullable().optional(),
  api_key: z.string().max(4096).nullable().optional(),
});

/**
 * The probe's failure codes, in the original's `error` field: its eight, plus `blocked` (the SSRF
 * guard refused the address), `missing_key` (a hosted API asked for without a key: nothing is
 * sent) and `invalid_key` (a key with a line break), refusals the original never makes.
 */
export const PROBE_ERROR_CODES = [
  "invalid_url",
  "dns",
  "connect_refused",
  "timeout",
  "http_4xx",
  "http_5xx",
  "parse",
  "unreachable",
  "blocked",
  "missing_key",
  "invalid_key",
] as const;
export type ProbeErrorCode = typeof PROBE_ERROR_CODES[number];

/** Sort a probe's failure sentence (lib/models/model_probes.ts words) into a code and status. */
export function classifyProbeFailure(detail: string): { error: ProbeErrorCode; status?: number } {
  const http = /answered HTTP (\d{3})/.exec(detail);
  if (http) {
    const status = Number(http[1]);
    const error = status >= 500 ? "http_5xx" : status >= 400 ? "http_4xx" : "unreachable";
    return { error, status };
  }
  if (/Cannot resolve the host/i.test(detail)) return { error: "dns" };
  if (/connection refused/i.test(detail)) return { error: "connect_refused" };
  if (/No answer from .* in time|timed? ?out/i.test(detail)) return { error: "timeout" };
  if (/did not answer with a model list/.test(detail)) return { error: "parse" };
  if (/No api key/i.test(detail)) return { error: "missing_key" };
  if (/not a valid URL|: no host|credentials in URLs|only http and https/.test(detail)) {
    return { error: "invalid_url" };
  }
  if (/^Refusing .*: the host is /.test(detail)) return { error: "blocked" };
  return { error: "unreachable" };
}

/**
 * The original's answer: `{ok:true, models:[{id, label}], status}` or `{ok:false, error: code,
 * detail, status?}`, plus the provider and base URL the probe used.
 */
export interface ProbeAnswer {
  ok: boolean;
  provider: string;
  base_url: string | null;
  models?: Array<{ id: string; label: string }>;
  status?: number;
  error?: ProbeErrorCode;
  detail?: string;
}

/**
 * Probe an endpoint for its model list and classify the outcome. An empty, hostless or
 * non-http(s) base is `invalid_url` before any request is made; every request goes through the
 * SSRF guard (probeEndpoint → runProbe → guardedFetch).
 */
export async function probeCompat(
  app: AppContext,
  body: z.infer<typeof CompatProbeBody>,
): Promise<ProbeAnswer> {
  const provider = body.provider || "custom";
  const meta = SETUP_PROVIDERS[provider] ?? SETUP_PROVIDERS.custom;
  const runsAs = meta.runs_as;
  const given = body.base_url === undefined || body.base_url === null
    ? undefined
    : trimSlash(body.base_url);
  const base = given ?? (runsAs === "custom" ? meta.default_base_url : undefined);
  const refuse = (error: ProbeErrorCode, detail: string): ProbeAnswer => ({
    ok: false,
    provider,
    base_url: given ?? null,
    error,
    detail,
  });
  if (given === "" || (runsAs === "custom" && !base)) {
    return refuse("invalid_url", "Enter the base URL of the endpoint (http:// or https://)");
  }
  if (base) {
    let url: URL | null = null;
    try {
      url = new URL(base);
    } catch { /* refused below */ }
    if (!url || !["http:", "https:"].includes(url.protocol)) {
      return refuse("invalid_url", `"${base}" is not an http:// or https:// URL`);
    }
    // `http:///models` parses with "models" as its host: the URL typed had none.
    if (/^[a-z]+:\/\/\//i.test(base) || !url.hostname) {
      return refuse("invalid_url", `"${base}" names no host`);
    }
  }
  const typed = body.api_key?.trim() || undefined;
  if (typed && /[\r\n\0]/.test(typed)) {
    return refuse("invalid_key", "API key must not contain newline characters");
  }
  const key = runsAs === "custom" && !typed
    ? undefined
    : effectiveProbeKey(app.config, runsAs, typed, base);
  if (typed && key === typed) app.log.addSecret(typed);
  const result = await probeEndpoint(runsAs, base, key);
  if (result.ok) {
    return {
      ok: true,
      provider,
      base_url: base ?? null,
      models: result.models.map((id) => ({ id, label: id })),
      status: 200,
    };
  }
  return {
    ok: false,
    provider,
    base_url: base ?? null,
    ...classifyProbeFailure(result.error),
    detail: result.error,
  };
}
