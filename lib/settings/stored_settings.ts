// The stored settings as the running app reads them: preferences merged over their defaults,
// stored API keys, and their layering onto the live config. Split from settings.ts (which
// validates and writes them with zod and reloads config.yaml) so that start-up and the
// middleware, which only read, load neither zod nor the config writer (~5 MB resident idle).
// Invariants: a corrupt or mistyped row reads as its default; keys returned here are unmasked,
// for the provider layer only; each reader is one async query (the middleware runs them on
// every page, so a slow database stalls that request and never the server).
import type { AppConfig } from "./config.ts";
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Logger } from "../log.ts";
import { KNOWN_PROVIDERS } from "../providers/provider_config.ts";
import { checkPreference, effectiveBotName, PREFERENCES } from "./preferences.ts";
import { readEnvFileKeys } from "./env_file.ts";

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

/**
 * The stored values of `keys`, parsed, in one query; a key absent or not JSON is left out.
 * Takes `AsyncQueries` so a transaction can read through its own handle.
 */
export async function readRawValues(
  db: AsyncQueries,
  keys: readonly string[],
): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  if (keys.length === 0) return out;
  const rows = await db.all<{ key: string; value: string }>(
    sql`SELECT key, value FROM settings WHERE key IN (${sql.join(keys.map((k) => sql`${k}`))})`,
  );
  for (const row of rows) {
    try {
      out.set(row.key, JSON.parse(row.value));
    } catch {
      // Not JSON: reads as absent, so its default applies.
    }
  }
  return out;
}

/** One stored value, parsed; undefined when absent or not JSON. */
export async function readRaw(db: AsyncQueries, key: string): Promise<unknown> {
  return (await readRawValues(db, [key])).get(key);
}

/** The console's own setting keys (StoredSettings). */
export const SETTING_KEYS: readonly string[] = Object.keys(DEFAULT_SETTINGS);
/** The original's preference keys (lib/settings/preferences.ts). */
export const PREFERENCE_KEYS: readonly string[] = Object.keys(PREFERENCES);

/** Stored preferences merged over the defaults; a corrupt or mistyped row reads as default. */
export async function readStoredSettings(db: AsyncQueries): Promise<StoredSettings> {
  return settingsFrom(await readRawValues(db, SETTING_KEYS));
}

/** StoredSettings out of values read by readRawValues (SETTING_KEYS among them). */
export function settingsFrom(values: ReadonlyMap<string, unknown>): StoredSettings {
  const out = { ...DEFAULT_SETTINGS } as Record<string, unknown>;
  for (const [key, fallback] of Object.entries(DEFAULT_SETTINGS)) {
    const value = values.get(key);
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
export async function storedProviderKeys(
  db: AsyncQueries,
): Promise<Partial<Record<KeyedProvider, string>>> {
  return providerKeysFrom(await readRawValues(db, [PROVIDER_KEYS_SETTING]));
}

/** The stored provider keys out of values read by readRawValues (PROVIDER_KEYS_SETTING among them). */
export function providerKeysFrom(
  values: ReadonlyMap<string, unknown>,
): Partial<Record<KeyedProvider, string>> {
  const raw = values.get(PROVIDER_KEYS_SETTING);
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
 * The API keys of the `.env` beside config.yaml (the original's home for them) come first,
 * under the real environment and the stored keys. Call at start-up and after every change;
 * `log` learns each key as a secret.
 */
export async function applySettingsToConfig(
  db: AsyncQueries,
  config: AppConfig,
  log?: Logger,
): Promise<void> {
  const base = baseOf(config);
  const values = await readRawValues(db, [...SETTING_KEYS, PROVIDER_KEYS_SETTING]);
  const stored = settingsFrom(values);
  const keys = providerKeysFrom(values);
  const fromEnvFile = await readEnvFileKeys(config.configPath);
  for (const key of Object.values(fromEnvFile)) log?.addSecret(key);
  const env: Record<string, string> = { ...fromEnvFile, ...base.env };
  for (const [id, key] of Object.entries(keys)) {
    env[envName(id as KeyedProvider)] = key;
    log?.addSecret(key);
  }
  config.env = Object.freeze(env);
  config.defaultModel = stored.default_model ?? fileDefaultModel(config, base.env);
  config.defaultWorkspace = stored.default_workspace ?? base.defaultWorkspace;
}

/** The original's preferences: each stored value that still passes its rule, else the default. */
export async function readPreferences(db: AsyncQueries): Promise<Record<string, unknown>> {
  return preferencesFrom(await readRawValues(db, PREFERENCE_KEYS));
}

/** The preferences out of values read by readRawValues (PREFERENCE_KEYS among them). */
export function preferencesFrom(values: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, pref] of Object.entries(PREFERENCES)) {
    const value = values.get(key);
    const checked = value === undefined ? null : checkPreference(pref.rule, value);
    out[key] = checked?.ok ? checked.value : structuredClone(pref.default);
  }
  out.bot_name = effectiveBotName(out.bot_name);
  return out;
}

/** The settings and the preferences together, in one query (what every page paints with). */
export async function readSettingsAndPreferences(
  db: AsyncQueries,
): Promise<{ settings: StoredSettings; preferences: Record<string, unknown> }> {
  const values = await readRawValues(db, [...SETTING_KEYS, ...PREFERENCE_KEYS]);
  return { settings: settingsFrom(values), preferences: preferencesFrom(values) };
}

/** The pin limit the pin endpoint honours (pinned_sessions_limit, default 3). */
export async function pinnedSessionsLimit(db: AsyncQueries): Promise<number> {
  return (await readPreferences(db)).pinned_sessions_limit as number;
}
