// Configuration, read once at start-up: the environment variables of API.md and the
// YAML file at HERMES_CONFIG_PATH. This is the only module that reads Deno.env; every
// other module receives an `AppConfig` (or the `env` snapshot inside it) as an argument.
import { parseDocument } from "yaml";
import { join, resolve } from "node:path";

/** A start-up problem a person can fix; main.ts prints `message` alone, no stack. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export interface AppConfig {
  host: string;
  port: number;
  stateDir: string;
  /**
   * HERMES_WEBUI_SHARED_DIR: where uploads and attachments live when several replicas serve one
   * database (a volume they all mount); unset, the state dir. See sharedFilesDir().
   */
  sharedDir?: string;
  defaultWorkspace: string;
  configPath: string;
  defaultModel: string | undefined;
  password: string | undefined;
  maxUploadBytes: number;
  modelsRebuildBudgetSeconds: number;
  /**
   * Replicas only: how long a run's lease holds unrenewed, and how often leases are renewed and
   * expired ones swept (HERMES_REPLICA_LEASE_SECONDS, _RENEW_MS, _SWEEP_MS). A dead replica's
   * runs are recovered within lease + sweep; a stalled one that is still connected keeps them
   * until its lease lapsed HERMES_REPLICA_HUNG_SECONDS ago.
   */
  leases: { leaseSeconds: number; renewMs: number; sweepMs: number; hungSeconds: number };
  /** Extra Host header values accepted besides the bind address and localhost. */
  allowedHosts: string[];
  /** `HERMES_WEBUI_TEST_HOOKS=1` enables test-only routes such as approval/inject_test. */
  testHooks: boolean;
  /** Home directory: workspaces must resolve under it or under an added workspace. */
  home: string;
  /** The parsed YAML config file ({} when the file does not exist). Raw: `${ENV}` unexpanded. */
  file: Record<string, unknown>;
  /** A snapshot of the environment, for `${ENV}` and `key_env` references and child envs. */
  env: Readonly<Record<string, string>>;
  /** Sign-in through an OpenID Connect provider (`auth.oidc` or HERMES_WEBUI_OIDC_*), if set. */
  oidc?: OidcConfig;
}

/** `auth.oidc` in config.yaml, each key overridable by its HERMES_WEBUI_OIDC_* variable. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** Fixed callback URL; unset: derived from the request's (checked) Host. */
  redirectUri: string | undefined;
  /** Lowercased; an ID token's verified `email` must be one of these… */
  allowedEmails: string[];
  /** …or its `groups` claim must hold one of these. Both empty: refused at start-up. */
  allowedGroups: string[];
  scopes: string[];
  /** Shown on the login button ("Sign in with <name>"). */
  providerName: string;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith("127.");
}

function numberVar(env: Record<string, string>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  }
  return n;
}

/** The replica lease timings; a renewal or sweep period must be shorter than the lease. */
function leaseTimings(env: Record<string, string>): AppConfig["leases"] {
  const leaseSeconds = numberVar(env, "HERMES_REPLICA_LEASE_SECONDS", 10);
  const renewMs = numberVar(env, "HERMES_REPLICA_RENEW_MS", 3_000);
  const sweepMs = numberVar(env, "HERMES_REPLICA_SWEEP_MS", 3_000);
  const hungSeconds = numberVar(env, "HERMES_REPLICA_HUNG_SECONDS", 60);
  if (renewMs < 50 || sweepMs < 50 || renewMs >= leaseSeconds * 1000) {
    throw new ConfigError(
      "HERMES_REPLICA_RENEW_MS and HERMES_REPLICA_SWEEP_MS must be at least 50, and the renewal " +
        "period shorter than HERMES_REPLICA_LEASE_SECONDS",
    );
  }
  return { leaseSeconds, renewMs, sweepMs, hungSeconds };
}

/** Read and parse the YAML config; a malformed file names the file and the line. */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
    throw new ConfigError(`Cannot read config file ${path}: ${(err as Error).message}`);
  }
  return parseConfigText(text, path);
}

/** Parse YAML text from `path`; errors name the file, line and column. */
export function parseConfigText(text: string, path: string): Record<string, unknown> {
  const doc = parseDocument(text, { prettyErrors: true, merge: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const pos = e.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : "";
    const reason = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw new ConfigError(`Config file ${path} is malformed${where}: ${reason}`);
  }
  const value = doc.toJS() ?? {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(`Config file ${path} must be a YAML mapping at the top level`);
  }
  return value as Record<string, unknown>;
}

/** Replace `${NAME}` references with values from `env` (missing names become ""). */
export function expandEnvRefs(value: string, env: Readonly<Record<string, string>>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
}

/**
 * Where the database lives (read here, the one reader of Deno.env): HERMES_DATABASE_URL names a
 * PostgreSQL server (else the SQLite file in the state dir); HERMES_DATABASE_ISOLATE=1 gives each
 * opened database one of its own (the test suite's PostgreSQL lane): a clone of the migrated
 * database HERMES_DATABASE_TEMPLATE names, else a schema (see lib/storage/postgres/).
 * HERMES_DATABASE_POOL sizes PostgreSQL's connection pool (default 10);
 * HERMES_DATABASE_STATEMENT_TIMEOUT_MS bounds one statement (default 5000; a transaction may ask
 * for longer, as an import does), after which that request answers 503.
 */
export function databaseEnv(): {
  url: string | null;
  isolate: boolean;
  template: string | null;
  poolSize: number;
  statementTimeoutMs: number;
} {
  const url = Deno.env.get("HERMES_DATABASE_URL")?.trim() || null;
  if (url && !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError("HERMES_DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  const template = Deno.env.get("HERMES_DATABASE_TEMPLATE")?.trim() || null;
  if (template && !/^[a-z_][a-z0-9_]{0,30}$/.test(template)) {
    throw new ConfigError("HERMES_DATABASE_TEMPLATE must be a plain database name (a-z, 0-9, _)");
  }
  const whole = (name: string, fallback: number, min: number, max: number) => {
    const raw = Deno.env.get(name)?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    }
    return n;
  };
  return {
    url,
    isolate: Deno.env.get("HERMES_DATABASE_ISOLATE") === "1",
    template,
    poolSize: whole("HERMES_DATABASE_POOL", 10, 1, 200),
    statementTimeoutMs: whole("HERMES_DATABASE_STATEMENT_TIMEOUT_MS", 5000, 100, 3_600_000),
  };
}

/** The folder for files every replica must see (uploads, attachments): see `sharedDir`. */
export function sharedFilesDir(config: { stateDir: string; sharedDir?: string }): string {
  return config.sharedDir ?? config.stateDir;
}

/** Build the configuration from an environment snapshot (defaults to the real one). */
export function loadConfig(env: Record<string, string> = Deno.env.toObject()): AppConfig {
  const home = env.HOME ?? env.USERPROFILE ?? Deno.cwd();
  const stateDir = resolve(env.HERMES_WEBUI_STATE_DIR || join(home, ".hermes", "webui"));
  const configPath = resolve(env.HERMES_CONFIG_PATH || join(home, ".hermes", "config.yaml"));
  const port = numberVar(env, "HERMES_WEBUI_PORT", 8787);
  if (!Number.isInteger(port) || port > 65535) {
    throw new ConfigError(
      `HERMES_WEBUI_PORT must be a port number, got "${env.HERMES_WEBUI_PORT}"`,
    );
  }
  const file = readConfigFile(configPath);
  const model = (file.model && typeof file.model === "object")
    ? file.model as Record<string, unknown>
    : {};
  return {
    host: env.HERMES_WEBUI_HOST || "127.0.0.1",
    port,
    stateDir,
    ...(env.HERMES_WEBUI_SHARED_DIR ? { sharedDir: resolve(env.HERMES_WEBUI_SHARED_DIR) } : {}),
    defaultWorkspace: resolve(env.HERMES_WEBUI_DEFAULT_WORKSPACE || Deno.cwd()),
    configPath,
    defaultModel: env.HERMES_WEBUI_DEFAULT_MODEL ||
      (typeof model.default === "string" ? model.default : undefined),
    password: env.HERMES_WEBUI_PASSWORD || undefined,
    maxUploadBytes: numberVar(env, "HERMES_WEBUI_MAX_UPLOAD_MB", 20) * 1024 * 1024,
    modelsRebuildBudgetSeconds: numberVar(env, "HERMES_WEBUI_MODELS_REBUILD_BUDGET", 4),
    leases: leaseTimings(env),
    allowedHosts: (env.HERMES_WEBUI_ALLOWED_HOSTS ?? "").split(",").map((s) => s.trim()).filter(
      Boolean,
    ),
    testHooks: env.HERMES_WEBUI_TEST_HOOKS === "1",
    home,
    file,
    env: Object.freeze({ ...env }),
    oidc: oidcConfig(file, env),
  };
}

function listOf(value: unknown, split: RegExp): string[] {
  const items = Array.isArray(value) ? value.map(String) : String(value ?? "").split(split);
  return items.map((s) => s.trim()).filter(Boolean);
}

/** The OIDC settings, or undefined when no issuer is configured. */
function oidcConfig(
  file: Record<string, unknown>,
  env: Record<string, string>,
): OidcConfig | undefined {
  const auth = file.auth && typeof file.auth === "object"
    ? file.auth as Record<string, unknown>
    : {};
  const raw = auth.oidc && typeof auth.oidc === "object"
    ? auth.oidc as Record<string, unknown>
    : {};
  const pick = (key: string, name: string): unknown => {
    const fromEnv = env[`HERMES_WEBUI_OIDC_${name}`];
    if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
    const v = raw[key];
    return typeof v === "string" ? expandEnvRefs(v, env) : v;
  };
  const str = (key: string, name: string) => {
    const v = pick(key, name);
    return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
  };
  const issuer = str("issuer", "ISSUER");
  if (!issuer) return undefined;
  const clientId = str("client_id", "CLIENT_ID");
  if (!clientId) {
    throw new ConfigError(
      "auth.oidc.issuer is set but client_id is missing (HERMES_WEBUI_OIDC_CLIENT_ID)",
    );
  }
  const allowedEmails = listOf(pick("allowed_emails", "ALLOWED_EMAILS"), /[,\s]+/).map((e) =>
    e.toLowerCase()
  );
  const allowedGroups = listOf(pick("allowed_groups", "ALLOWED_GROUPS"), /,/);
  if (allowedEmails.length === 0 && allowedGroups.length === 0) {
    throw new ConfigError(
      "auth.oidc needs allowed_emails or allowed_groups (HERMES_WEBUI_OIDC_ALLOWED_EMAILS / " +
        "_ALLOWED_GROUPS): without an allowlist anyone with an account at the provider could sign in",
    );
  }
  const scopes = listOf(pick("scopes", "SCOPES"), /[,\s]+/);
  let host = issuer;
  try {
    host = new URL(issuer).hostname;
  } catch {
    throw new ConfigError(`auth.oidc.issuer must be a URL, got "${issuer.slice(0, 200)}"`);
  }
  return {
    issuer,
    clientId,
    clientSecret: str("client_secret", "CLIENT_SECRET"),
    redirectUri: str("redirect_uri", "REDIRECT_URI"),
    allowedEmails,
    allowedGroups,
    scopes: scopes.length > 0 ? scopes : ["openid", "email", "profile"],
    providerName: str("name", "PROVIDER_NAME") ?? host,
  };
}
