// First-run onboarding: is a provider configured, which local servers (Ollama, LM Studio) are
// running, does a candidate endpoint answer, and writing the chosen provider to config.yaml.
// Invariants: every probe goes through the SSRF guard (lib/security/url_guard.ts via model_probes);
// the config is edited as a YAML document (comments and `${ENV}` strings survive), atomically,
// and a malformed file is refused untouched; an api key never appears in a response or error.
import { isMap, parseDocument } from "yaml";
import { z } from "zod";
import type { AppConfig } from "./config.ts";
import { detachAliases, setMasked, updateConfigDocument, YAML_OPTIONS } from "./config_writer.ts";
import { ValidationError } from "../errors.ts";
import { planProbeTargets, type ProbeIo, runProbe } from "../models/model_probes.ts";
import {
  KNOWN_PROVIDERS,
  type ProviderEndpoint,
  resolveProviders,
} from "../providers/provider_config.ts";
import { isMaskedSecret } from "../security/secrets.ts";
import { checkEndpointUrl } from "../security/url_guard.ts";
import { readStoredSettings } from "./settings.ts";
import type { Db } from "../storage/db.ts";
import { validateWorkspaceToAdd } from "../workspace/workspaces.ts";

export const ONBOARDING_PROVIDERS = [
  "openai",
  "anthropic",
  "openrouter",
  "ollama",
  "lmstudio",
  "custom",
] as const;
export type OnboardingProvider = typeof ONBOARDING_PROVIDERS[number];

/** Where the two local servers listen unless the environment says otherwise. */
export const LOCAL_DEFAULTS = {
  ollama: "http://127.0.0.1:11434",
  lmstudio: "http://127.0.0.1:1234/v1",
} as const;
/** Local detection must not hold up the first page: a running server answers in milliseconds. */
export const DETECT_TIMEOUT_MS = 1500;
/** A hosted API listing its models can take a few seconds. */
export const PROBE_TIMEOUT_MS = 10_000;

export interface LocalServer {
  reachable: boolean;
  models: string[];
  base_url: string;
  error?: string;
}

export interface OnboardingStatus {
  needed: boolean;
  has_provider: boolean;
  /** The provider in use (null when none is usable) and why, in words. */
  provider: string | null;
  default_model: string | null;
  issue: string | null;
  detected: { ollama: LocalServer; lmstudio: LocalServer };
  config_path: string;
  /** Set when config.yaml exists but cannot be parsed: completing would be refused. */
  config_error: string | null;
  workspace: string;
  /** What the wizard offers, with whether a key is already exported for each. */
  providers: Array<{
    id: OnboardingProvider;
    label: string;
    needs_key: boolean;
    has_key: boolean;
    base_url: string | null;
  }>;
}

/**
 * The URLs local detection asks: OLLAMA_HOST (Ollama's own variable, `host:port` or a URL;
 * a 0.0.0.0 bind is reached on 127.0.0.1) and LMSTUDIO_BASE_URL, else the default ports.
 */
export function localServerUrls(env: Readonly<Record<string, string>>) {
  let ollama: string = LOCAL_DEFAULTS.ollama;
  const host = env.OLLAMA_HOST?.trim();
  if (host) {
    const withScheme = /^https?:\/\//.test(host);
    const url = new URL(withScheme ? host : `http://${host}`);
    if (url.hostname === "0.0.0.0" || url.hostname === "[::]") url.hostname = "127.0.0.1";
    // Like Ollama: a bare host gets port 11434; an explicit scheme keeps its own default port.
    if (!withScheme && !/:\d+$/.test(host)) url.port = "11434";
    ollama = url.origin;
  }
  const lmstudio = env.LMSTUDIO_BASE_URL?.trim() || LOCAL_DEFAULTS.lmstudio;
  return { ollama, lmstudio };
}

function endpointFor(
  id: OnboardingProvider,
  baseUrl: string | undefined,
  apiKey: string | undefined,
): ProviderEndpoint {
  const known = KNOWN_PROVIDERS[id];
  return {
    id,
    protocol: known.protocol,
    label: known.label,
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    models: [],
    // The person is configuring this endpoint right now: loopback/LAN servers are allowed
    // (metadata and link-local addresses stay refused by the guard).
    userConfigured: true,
  };
}

/** Ask one endpoint for its models. Never throws for network trouble: that is `ok:false`. */
export async function probeEndpoint(
  id: OnboardingProvider,
  baseUrl: string | undefined,
  apiKey: string | undefined,
  opts: { timeoutMs?: number; io?: ProbeIo } = {},
): Promise<{ ok: true; models: string[] } | { ok: false; error: string }> {
  const endpoint = endpointFor(id, baseUrl, apiKey);
  const [target] = planProbeTargets({
    active: endpoint,
    activeProviderId: id,
    defaultModel: null,
    endpoints: [endpoint],
  });
  if (target.missingKey) {
    return { ok: false, error: `No api key: enter one or set ${target.missingKey}` };
  }
  const signal = AbortSignal.timeout(opts.timeoutMs ?? PROBE_TIMEOUT_MS);
  const result = await runProbe(target, opts.io ?? {}, signal);
  if (result.status === "ok") return { ok: true, models: result.models.map((m) => m.id) };
  if (result.status === "aborted") {
    return { ok: false, error: `No answer from ${target.url.split("?")[0]} in time` };
  }
  return { ok: false, error: result.error };
}

async function detect(id: "ollama" | "lmstudio", baseUrl: string, io?: ProbeIo) {
  const r = await probeEndpoint(id, baseUrl, undefined, { timeoutMs: DETECT_TIMEOUT_MS, io });
  return r.ok
    ? { reachable: true, models: r.models, base_url: baseUrl }
    : { reachable: false, models: [], base_url: baseUrl, error: r.error };
}

/** The config file's parse problem, or null (a missing file is fine: it will be created). */
async function configProblem(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    return err instanceof Deno.errors.NotFound
      ? null
      : `Cannot read ${path}: ${(err as Error).message}`;
  }
  const doc = parseDocument(text, YAML_OPTIONS);
  if (doc.errors.length === 0) {
    return doc.contents === null || isMap(doc.contents)
      ? null
      : `Config file ${path} must be a YAML mapping at the top level`;
  }
  const e = doc.errors[0];
  const pos = e.linePos?.[0];
  return `Config file ${path} is malformed${pos ? ` at line ${pos.line}, column ${pos.col}` : ""}`;
}

/**
 * Onboarding is needed when no provider is usable, it was never completed or skipped, and
 * HERMES_WEBUI_SKIP_ONBOARDING is not set. Cheap (no probe): `/` asks it on every load.
 */
export async function onboardingNeeded(deps: { db: Db; config: AppConfig }): Promise<boolean> {
  const skip = /^(1|true|yes|on)$/i.test(deps.config.env.HERMES_WEBUI_SKIP_ONBOARDING ?? "");
  return !skip && resolveProviders(deps.config).active === null &&
    !(await readStoredSettings(deps.db)).onboarding_completed;
}

/** What the first-run wizard shows (onboardingNeeded); local servers are detected in parallel. */
export async function onboardingStatus(
  deps: { db: Db; config: AppConfig },
  io?: ProbeIo,
): Promise<OnboardingStatus> {
  const { config, db } = deps;
  const resolved = resolveProviders(config);
  const urls = localServerUrls(config.env);
  const [ollama, lmstudio, configError, needed] = await Promise.all([
    detect("ollama", urls.ollama, io),
    detect("lmstudio", urls.lmstudio, io),
    configProblem(config.configPath),
    onboardingNeeded({ db, config }),
  ]);
  const hasProvider = resolved.active !== null;
  return {
    needed,
    has_provider: hasProvider,
    provider: resolved.activeProviderId,
    default_model: resolved.defaultModel,
    issue: resolved.issue ?? null,
    detected: { ollama, lmstudio },
    config_path: config.configPath,
    config_error: configError,
    workspace: config.defaultWorkspace,
    providers: ONBOARDING_PROVIDERS.map((id) => {
      const known = KNOWN_PROVIDERS[id];
      return {
        id,
        label: known.label,
        needs_key: known.needsKey,
        has_key: !!(known.keyEnv && config.env[known.keyEnv]?.trim()),
        base_url: id === "ollama"
          ? `${urls.ollama}/v1`
          : id === "lmstudio"
          ? urls.lmstudio
          : known.baseUrl ?? null,
      };
    }),
  };
}

const httpUrl = z.string().trim().max(2048).refine((v) => {
  try {
    return ["http:", "https:"].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}, "must be an http:// or https:// URL");

const apiKey = z.string().trim().max(4096).refine(
  (v) => isMaskedSecret(v) || /^[\x21-\x7e]+$/.test(v),
  "must be an API key (printable ASCII without spaces)",
);

/** POST /api/onboarding/probe */
export const ProbeBody = z.object({
  provider: z.enum(ONBOARDING_PROVIDERS),
  base_url: httpUrl.nullable().optional(),
  api_key: apiKey.nullable().optional(),
});

/** POST /api/onboarding/complete */
export const CompleteBody = z.object({
  provider: z.enum(ONBOARDING_PROVIDERS),
  base_url: httpUrl.nullable().optional(),
  api_key: apiKey.nullable().optional(),
  model: z.string().trim().min(1, "must name a model").max(256),
  workspace: z.string().trim().min(1).max(4096).nullable().optional(),
  password: z.string().min(8, "must be at least 8 characters").max(4096).nullable().optional(),
});
export type CompleteBody = z.infer<typeof CompleteBody>;

const trimSlash = (u: string) => u.trim().replace(/\/+$/, "");

/** The API root a provider is reached at when no base_url is given. */
function defaultBaseUrl(id: OnboardingProvider): string | undefined {
  if (id === "openai") return "https://api.openai.com/v1";
  if (id === "anthropic") return "https://api.anthropic.com/v1";
  return KNOWN_PROVIDERS[id].baseUrl;
}

/**
 * The key a probe should send: the one typed, or — for a masked echo or none — the key in force
 * for that provider, but only to the endpoint that key is configured for. A stored key is never
 * sent to a URL typed into the wizard.
 */
export function effectiveProbeKey(
  config: AppConfig,
  provider: OnboardingProvider,
  typed: string | null | undefined,
  baseUrl?: string | null,
): string | undefined {
  if (typed && !isMaskedSecret(typed)) return typed;
  const endpoint = resolveProviders(config).endpoints.find((e) => e.id === provider);
  if (!endpoint?.apiKey) return undefined;
  const home = endpoint.baseUrl ?? defaultBaseUrl(provider);
  if (baseUrl && (!home || trimSlash(baseUrl) !== trimSlash(home))) return undefined;
  return endpoint.apiKey;
}

/** Validate the parts of a completion that live outside config.yaml, before anything is written. */
export async function checkCompletion(config: AppConfig, body: CompleteBody): Promise<void> {
  if (body.provider === "custom" && !body.base_url) {
    throw new ValidationError(
      'Invalid field "base_url": a custom provider needs the URL of its OpenAI-compatible API',
      "base_url",
    );
  }
  if (body.password && config.password) {
    throw new ValidationError(
      'Invalid field "password": the password is set by HERMES_WEBUI_PASSWORD',
      "password",
    );
  }
  if (body.workspace) {
    try {
      await validateWorkspaceToAdd(config, body.workspace);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      throw new ValidationError(`Invalid field "workspace": ${err.message}`, "workspace");
    }
  }
}

/**
 * Write the chosen provider to config.yaml as `model: {provider, default, base_url?, api_key?}`.
 * Everything else in the file (comments, `${ENV}` strings, other sections) is kept. Switching
 * provider drops the old provider's base_url and api_key unless new ones are given, so a key is
 * never sent to another vendor; a masked key echoed back keeps the stored key. A provider that
 * needs a key and has none anywhere (here, the file, the environment) is a 400; so is a
 * malformed existing file, which is left byte-for-byte as it was.
 */
export async function writeProviderConfig(config: AppConfig, body: CompleteBody): Promise<void> {
  // The API key will be sent there: never to a metadata or unspecified address (SSRF guard).
  if (body.base_url) await checkEndpointUrl(body.base_url);
  const known = KNOWN_PROVIDERS[body.provider];
  const writesKey = !!body.api_key && !isMaskedSecret(body.api_key);
  await updateConfigDocument(config.configPath, (doc) => {
    if (!isMap(doc.get("model", true))) doc.set("model", doc.createNode({}));
    detachAliases(doc, ["model"]);
    const previous = doc.getIn(["model", "provider"]);
    const same = typeof previous === "string" && previous.toLowerCase() === body.provider;
    doc.setIn(["model", "provider"], body.provider);
    doc.setIn(["model", "default"], body.model);

    if (body.base_url) doc.setIn(["model", "base_url"], body.base_url);
    else if (body.base_url === null || !same) doc.deleteIn(["model", "base_url"]);

    const stored = doc.getIn(["model", "api_key"]);
    const masked = !!body.api_key && isMaskedSecret(body.api_key);
    if (body.api_key && !masked) doc.setIn(["model", "api_key"], body.api_key);
    else if (masked && same && typeof stored === "string") {
      setMasked(doc, ["model", "api_key"], body.api_key);
    } else if (body.api_key === null || !same || masked) doc.deleteIn(["model", "api_key"]);

    if (known.needsKey) {
      const inModel = doc.getIn(["model", "api_key"]);
      const inSection = doc.getIn(["providers", body.provider, "api_key"]);
      const inEnv = known.keyEnv ? config.env[known.keyEnv]?.trim() : "";
      if (!inModel && !inSection && !inEnv) {
        throw new ValidationError(
          `Invalid field "api_key": ${known.label} needs an API key (or set ${known.keyEnv})`,
          "api_key",
        );
      }
    }
  });
  if (writesKey) await restrictToOwner(config.configPath);
}

/** A file that now holds a literal API key must not stay readable by group or others. */
async function restrictToOwner(path: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  const target = await Deno.realPath(path);
  const mode = (await Deno.stat(target)).mode;
  if (mode !== null && (mode & 0o077) !== 0) await Deno.chmod(target, mode & 0o7700);
}
