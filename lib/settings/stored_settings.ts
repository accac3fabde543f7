// The stored settings as the running app reads them: preferences merged over their defaults,
// stored API keys, and their layering onto the live config. Split from settings.ts (which
// validates and writes them with zod and reloads config.yaml) so that start-up and the
// middleware, which only read, load neither zod nor the config writer (~5 MB resident idle).
// Invariants: a corrupt or mistyped row reads as its default; keys returned here are unmasked,
// for the provider layer only.
import type { AppConfig } from "./config.ts";
import type { Db } from "../storage/db.ts";
import type { Logger } from "../log.ts";
import { KNOWN_PROVIDERS } from "../providers/provider_config.ts";
import { checkPreference, effectiveBotName, PREFERENCES } from "./preferences.ts";

export const SEND_KEYS = ["enter", "ctrl+enter", "shift+enter"] as const;
export const THEMES = ["light", "dark", "system"] as const;
/** Providers whose API key can be stored here (each maps to its conventional env var). */
export const KEYED_PROVIDERS = ["openai", "anthropic", "openrouter"] as const;
export type KeyedProvider = typeof KEYED_PROVIDERS[number];

/** Preferences stored in the database (no secrets). */
export interface StoredSettings {
  /** Overrides HERMES_WEBUI_DEFAULT_MODEL / config `model.default`; null = use those. */
  default_model: string | null;
  /** Overrides HERMES_WEBUI_DEFAULT_WORKSPACE; null = use it. */
  default_workspace: string | null;
  send_key: typeof SEND_KEYS[number];
  theme: typeof THEMES[number];
  show_thinking: boolean;
  /** How long a tool call waits for an approval before it is denied. */
  approval_timeout_seconds: number;
  /** Set when first-run onboarding was completed (or skipped) once. */
  onboarding_completed: boolean;
}

export const DEFAULT_SETTINGS: StoredSettings = {
  default_model: null,
  default_workspace: null,
  send_key: "enter",
  theme: "system",
  show_thinking: true,
  approval_timeout_seconds: 300,
  onboarding_completed: false,
};

/** The settings row holding the stored provider keys. */
export const PROVIDER_KEYS_SETTING = "provider_keys";

/** One stored value, parsed; undefined when absent or not JSON. */
export function readRaw(db: Db, key: string): unknown {
  const row = db.prepare("SELECT value FROM settings WHERE key = ?").get(key) as
    | { value: string }
    | undefined;
  if (!row) return undefined;
  try {
    return JSON.parse(row.value);
  } catch {
    return undefined;
  }
}

/** Stored preferences merged over the defaults; a corrupt or mistyped row reads as default. */
export function readStoredSettings(db: Db): StoredSettings {
  const out = { ...DEFAULT_SETTINGS } as Record<string, unknown>;
  for (const [key, fallback] of Object.entries(DEFAULT_SETTINGS)) {
    const value = readRaw(db, key);
    if (value === undefined) continue;
    const ok = key === "default_model" || key === "default_workspace"
      ? value === null || typeof value === "string"
      : key === "send_key"
      ? (SEND_KEYS as readonly unknown[]).includes(value)
      : key === "theme"
      ? (THEMES as readonly unknown[]).includes(value)
      : typeof value === typeof fallback;
    if (ok) out[key] = value;
  }
  return out as unknown as StoredSettings;
}

/** The provider API keys stored through the settings (unmasked: for the provider layer only). */
export function storedProviderKeys(db: Db): Partial<Record<KeyedProvider, string>> {
  const raw = readRaw(db, PROVIDER_KEYS_SETTING);
  const out: Partial<Record<KeyedProvider, string>> = {};
  if (raw && typeof raw === "object") {
    for (const id of KEYED_PROVIDERS) {
      const v = (raw as Record<string, unknown>)[id];
      if (typeof v === "string" && v !== "") out[id] = v;
    }
  }
  return out;
}

/** The env var a stored key stands in for. */
export const envName = (id: KeyedProvider) => KNOWN_PROVIDERS[id].keyEnv!;

/** What the environment and config said before any stored setting was layered on. */
interface ConfigBase {
  env: Readonly<Record<string, string>>;
  defaultWorkspace: string;
}
const bases = new WeakMap<AppConfig, ConfigBase>();

/** The config as the environment and config file set it, before stored settings. */
export function baseOf(config: AppConfig): ConfigBase {
  let base = bases.get(config);
  if (!base) {
    base = { env: config.env, defaultWorkspace: config.defaultWorkspace };
    bases.set(config, base);
  }
  return base;
}

/** The default model from the environment and config file alone (as lib/settings/config.ts reads it). */
export function fileDefaultModel(config: AppConfig, env: Readonly<Record<string, string>>) {
  const model = config.file.model;
  if (env.HERMES_WEBUI_DEFAULT_MODEL) return env.HERMES_WEBUI_DEFAULT_MODEL;
  if (typeof model === "string" && model.trim()) return model.trim();
  if (model && typeof model === "object") {
    const d = (model as Record<string, unknown>).default;
    if (typeof d === "string" && d.trim()) return d.trim();
  }
  return undefined;
}

/**
 * Layer the stored settings onto the live config, in place, so every reader of `config`
 * (session defaults, provider resolution, `${ENV}` expansion) sees them without knowing
 * about settings: the default model and workspace, and stored API keys as their env vars.
 * Call at start-up and after every change; `log` learns each key as a secret.
 */
export function applySettingsToConfig(db: Db, config: AppConfig, log?: Logger): void {
  const base = baseOf(config);
  const stored = readStoredSettings(db);
  const env: Record<string, string> = { ...base.env };
  for (const [id, key] of Object.entries(storedProviderKeys(db))) {
    env[envName(id as KeyedProvider)] = key;
    log?.addSecret(key);
  }
  config.env = Object.freeze(env);
  config.defaultModel = stored.default_model ?? fileDefaultModel(config, base.env);
  config.defaultWorkspace = stored.default_workspace ?? base.defaultWorkspace;
}

/** The original's preferences: each stored value that still passes its rule, else the default. */
export function readPreferences(db: Db): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, pref] of Object.entries(PREFERENCES)) {
    const value = readRaw(db, key);
    const checked = value === undefined ? null : checkPreference(pref.rule, value);
    out[key] = checked?.ok ? checked.value : structuredClone(pref.default);
  }
  out.bot_name = effectiveBotName(out.bot_name);
  return out;
}

/** The pin limit the pin endpoint honours (pinned_sessions_limit, default 3). */
export function pinnedSessionsLimit(db: Db): number {
  return readPreferences(db).pinned_sessions_limit as number;
}
