// Console settings a person changes in the Control Center: defaults for new sessions, the
// composer and the approval timeout, the login password and provider API keys. Invariants:
// stored as one JSON value per key in `settings` (the password hash, owned by lib/security/auth.ts, as
// its raw string); secrets never leave this module unmasked; a masked key written back keeps
// the stored key; a stored key acts exactly like its exported env var (OPENAI_API_KEY …),
// overriding it, and clearing it brings the exported value back. This file validates and
// writes; reading (what start-up needs) is stored_settings.ts.
import { z } from "zod";
import type { AppContext } from "../server/app_context.ts";
import type { AppConfig } from "./config.ts";
import { reloadConfigFile } from "./config_writer.ts";
import { type AsyncQueries, type Db, sql } from "../storage/db.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { validate } from "../server/http.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";
import { hashPassword } from "../security/password.ts";
import { isMaskedSecret, maskSecret } from "../security/secrets.ts";
import { PASSWORD_HASH_SETTING, revokeAllSessions, storedPasswordHash } from "../security/auth.ts";
import { registerWorkspace, validateWorkspaceToAdd } from "../workspace/workspaces.ts";
import { checkPreference, INERT_PREFERENCES, PREFERENCES, SPEECH_KEYS } from "./preferences.ts";
import {
  applySettingsToConfig,
  baseOf,
  envName,
  fileDefaultModel,
  KEYED_PROVIDERS,
  type KeyedProvider,
  PREFERENCE_KEYS,
  preferencesFrom,
  PROVIDER_KEYS_SETTING,
  providerKeysFrom,
  readRawValues,
  readStoredSettings,
  SEND_KEYS,
  SETTING_KEYS,
  settingsFrom,
  storedProviderKeys,
  type StoredSettings,
  THEMES,
} from "./stored_settings.ts";

// The readers live in stored_settings.ts (no zod, no config writer: start-up loads only them);
// re-exported here for the pages and panels that read and write settings together.
export {
  applySettingsToConfig,
  DEFAULT_SETTINGS,
  KEYED_PROVIDERS,
  type KeyedProvider,
  pinnedSessionsLimit,
  readPreferences,
  readSettingsAndPreferences,
  readStoredSettings,
  SEND_KEYS,
  storedProviderKeys,
  type StoredSettings,
  THEMES,
} from "./stored_settings.ts";

/** GET /api/settings: the settings with secrets masked, plus what the UI needs to render. */
export interface PublicSettings
  extends Omit<StoredSettings, "default_model" | "default_workspace"> {
  /** The model new sessions get: the stored override, else the environment/config default. */
  default_model: string | null;
  /** The workspace new sessions get: the stored override, else the environment default. */
  default_workspace: string;
  /** Stored keys, masked (`sk-…abcd`); "" when none is stored. */
  provider_keys: Record<KeyedProvider, string>;
  /** True when the environment exports a key for the provider (used when none is stored). */
  provider_keys_from_env: Record<KeyedProvider, boolean>;
  /** A password was set through the settings (the hash itself is never returned). */
  password_set: boolean;
  /** HERMES_WEBUI_PASSWORD is set: the password cannot be changed here. */
  password_from_env: boolean;
  auth_enabled: boolean;
  /** The original's name for password_from_env. */
  password_env_var: boolean;
  /** The speech preferences that were ever saved (the original's `persisted_speech_keys`). */
  persisted_speech_keys: string[];
  /** The original's preference keys (lib/settings/preferences.ts), stored or default. */
  [preference: string]: unknown;
}

const MIN_PASSWORD_CHARS = 8;

const optionalText = (max: number) =>
  z.string().trim().max(max).nullable().optional().transform((v) => v === "" ? null : v);

const providerKey = z.string().trim().max(4096).nullable().optional().refine(
  (v) => v == null || v === "" || isMaskedSecret(v) || /^[\x21-\x7e]+$/.test(v),
  'must be an API key (printable ASCII without spaces), null or "" to remove it',
);

/** The console's own keys of POST /api/settings, each checked by its field schema. */
export const SettingsPatch = z.strictObject({
  default_model: optionalText(256),
  default_workspace: optionalText(4096),
  send_key: z.enum(SEND_KEYS).optional(),
  theme: z.enum(THEMES).optional(),
  show_thinking: z.boolean().optional(),
  approval_timeout_seconds: z.number().int().min(10).max(86_400).optional(),
  onboarding_completed: z.boolean().optional(),
  password: z.string().min(MIN_PASSWORD_CHARS, `must be at least ${MIN_PASSWORD_CHARS} characters`)
    .max(4096).nullable().optional(),
  clear_password: z.boolean().optional(),
  provider_keys: z.strictObject({
    openai: providerKey,
    anthropic: providerKey,
    openrouter: providerKey,
  }).optional(),
});
export type SettingsPatch = Partial<z.infer<typeof SettingsPatch>>;

/**
 * Keys whose bad value is still a 400: each is an action (a password, a key, a directory) a
 * person must learn failed, never a silent no-op.
 */
const STRICT_KEYS = ["password", "clear_password", "provider_keys", "default_workspace"] as const;
/** The console's own preference keys: an invalid value is ignored, like the original's. */
const LENIENT_KEYS = [
  "send_key",
  "theme",
  "show_thinking",
  "approval_timeout_seconds",
  "onboarding_completed",
] as const;

/** A POST /api/settings body split into what to store and what was ignored. */
export interface SettingsBody {
  patch: SettingsPatch;
  preferences: Record<string, unknown>;
  /**
   * Unknown keys, invalid values, default_model (set through POST /api/default-model), and the
   * inert keys (INERT_PREFERENCES): kept for the original's clients, acted on by nothing here.
   */
  ignored: string[];
}

/**
 * Split a POST /api/settings body like the original does: unknown keys and invalid values
 * are ignored (and named in `ignored`), known ones kept. Only the strict keys throw (400).
 */
export function parseSettingsBody(raw: Record<string, unknown>): SettingsBody {
  const strict: Record<string, unknown> = {};
  const patch: Record<string, unknown> = {};
  const preferences: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if ((STRICT_KEYS as readonly string[]).includes(key)) {
      strict[key] = value;
    } else if ((LENIENT_KEYS as readonly string[]).includes(key)) {
      const field = SettingsPatch.shape[key as typeof LENIENT_KEYS[number]];
      const parsed = field.safeParse(value);
      if (parsed.success && parsed.data !== undefined) patch[key] = parsed.data;
      else ignored.push(key);
    } else if (Object.hasOwn(PREFERENCES, key)) {
      const checked = checkPreference(PREFERENCES[key].rule, value);
      if (checked.ok) preferences[key] = checked.value;
      if (!checked.ok || INERT_PREFERENCES.includes(key)) ignored.push(key);
    } else {
      ignored.push(key);
    }
  }
  const strictPatch = validate(SettingsPatch, strict);
  return { patch: { ...patch, ...strictPatch }, preferences, ignored };
}

/** Store one raw value (the password hash is stored as is, everything else as JSON). */
async function writeSetting(db: AsyncQueries, key: string, value: string): Promise<void> {
  await db.run(
    sql`INSERT INTO settings (key, value) VALUES (${key}, ${value})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
}

function writeRaw(db: AsyncQueries, key: string, value: unknown): Promise<void> {
  return writeSetting(db, key, JSON.stringify(value));
}

/** The settings as GET /api/settings returns them: secrets masked, auth state included. */
export async function getSettings(db: AsyncQueries, config: AppConfig): Promise<PublicSettings> {
  // Every JSON setting in one query; the password hash (a raw string) in a second.
  const values = await readRawValues(db, [
    ...SETTING_KEYS,
    ...PREFERENCE_KEYS,
    ...SPEECH_KEYS,
    PROVIDER_KEYS_SETTING,
  ]);
  const passwordHash = await storedPasswordHash(db);
  const stored = settingsFrom(values);
  const keys = providerKeysFrom(values);
  const baseEnv = baseOf(config).env;
  const provider_keys = {} as Record<KeyedProvider, string>;
  const provider_keys_from_env = {} as Record<KeyedProvider, boolean>;
  for (const id of KEYED_PROVIDERS) {
    provider_keys[id] = maskSecret(keys[id]);
    provider_keys_from_env[id] = !!baseEnv[envName(id)]?.trim();
  }
  const passwordSet = passwordHash !== null;
  const persisted = SPEECH_KEYS.filter((k) => values.get(k) !== undefined);
  return {
    ...preferencesFrom(values),
    ...stored,
    persisted_speech_keys: [...persisted].sort(),
    password_env_var: !!config.password,
    default_model: stored.default_model ?? fileDefaultModel(config, baseEnv) ?? null,
    default_workspace: stored.default_workspace ?? baseOf(config).defaultWorkspace,
    provider_keys,
    provider_keys_from_env,
    password_set: passwordSet,
    password_from_env: !!config.password,
    auth_enabled: !!config.password || passwordSet,
  };
}

/** What an update changed that callers must act on (cookies, provider caches). */
export interface SettingsUpdate {
  settings: PublicSettings;
  /** The password was set, changed or cleared: every login session was revoked. */
  passwordChanged: boolean;
  /** Provider keys or the default model changed: provider caches must be invalidated. */
  providerChanged: boolean;
}

export interface SettingsDeps {
  db: Db;
  config: AppConfig;
  clock: Clock;
  log?: Logger;
}

/**
 * Merge a validated partial update. Fields not in `patch` are untouched. The workspace is
 * checked (existing directory, not a system root) and registered; a password is hashed
 * (lib/security/password.ts) and never stored or returned in clear; a masked key keeps the stored key.
 */
export async function updateSettings(
  deps: SettingsDeps,
  patch: SettingsPatch,
  preferences: Record<string, unknown> = {},
): Promise<SettingsUpdate> {
  const { db, config, clock, log } = deps;
  let workspace: string | null | undefined = patch.default_workspace;
  if (typeof workspace === "string") {
    try {
      workspace = await validateWorkspaceToAdd(config, workspace);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      throw new ValidationError(
        `Invalid field "default_workspace": ${err.message}`,
        "default_workspace",
      );
    }
  }
  const clearing = patch.password === null || patch.clear_password === true;
  if ((typeof patch.password === "string" || clearing) && config.password) {
    throw new ConflictError(
      "The password is set by HERMES_WEBUI_PASSWORD; change or unset it in the environment",
    );
  }
  if (typeof patch.password === "string" && patch.clear_password === true) {
    throw new ValidationError(
      'Invalid field "clear_password": cannot set and clear the password at once',
      "clear_password",
    );
  }
  const hash = typeof patch.password === "string" ? await hashPassword(patch.password) : null;
  if (typeof patch.password === "string") log?.addSecret(patch.password);

  let passwordChanged = false;
  let providerChanged = false;
  await db.transaction(async (tx) => {
    const simple = [
      "send_key",
      "theme",
      "show_thinking",
      "approval_timeout_seconds",
      "onboarding_completed",
    ] as const;
    for (const key of simple) if (patch[key] !== undefined) await writeRaw(tx, key, patch[key]);
    for (const [key, value] of Object.entries(preferences)) await writeRaw(tx, key, value);
    if (patch.default_model !== undefined) {
      const before = (await readStoredSettings(tx)).default_model;
      await writeRaw(tx, "default_model", patch.default_model);
      providerChanged ||= before !== patch.default_model;
    }
    if (workspace !== undefined) await writeRaw(tx, "default_workspace", workspace);
    // The default workspace is listed (an idempotent upsert) together with the setting.
    if (workspace) await registerWorkspace(tx, clock, workspace);
    if (patch.provider_keys) {
      const before = await storedProviderKeys(tx);
      const keys: Record<string, string> = { ...before };
      for (const id of KEYED_PROVIDERS) {
        const value = patch.provider_keys[id];
        if (value === undefined || (value && isMaskedSecret(value))) continue;
        if (value) keys[id] = value;
        else delete keys[id];
        providerChanged ||= keys[id] !== before[id];
      }
      await writeRaw(tx, PROVIDER_KEYS_SETTING, keys);
    }
    if (hash !== null) {
      await writeSetting(tx, PASSWORD_HASH_SETTING, hash);
      passwordChanged = true;
    } else if (clearing && await storedPasswordHash(tx) !== null) {
      await tx.run(sql`DELETE FROM settings WHERE key = ${PASSWORD_HASH_SETTING}`);
      passwordChanged = true;
    }
    if (passwordChanged) await revokeAllSessions(tx);
  });
  await applySettingsToConfig(db, config, log);
  return { settings: await getSettings(db, config), passwordChanged, providerChanged };
}

/** Run every registered provider-config invalidator (the model catalog's, for one). */
export async function notifyProviderConfigChange(app: AppContext): Promise<void> {
  for (const fn of app.onProviderConfigChange) {
    try {
      await fn();
    } catch (err) {
      app.log.error("A provider-config change hook failed", { error: String(err) });
    }
  }
}

/**
 * Re-read config.yaml into the live config, layer the stored settings back on and tell
 * every provider cache: after this, a changed provider takes effect without a restart.
 */
export async function reloadAppConfig(app: AppContext): Promise<void> {
  await reloadConfigFile(app.config);
  await applySettingsToConfig(app.db, app.config, app.log);
  await notifyProviderConfigChange(app);
}
