// Password login: who may use the console, and how a browser proves it did log in.
// Invariants: auth is on when HERMES_WEBUI_PASSWORD or a stored `password_hash` exists; a
// session cookie is `<nonce>.<expires>.<HMAC>` and is valid only while unexpired, correctly
// signed AND its nonce is still listed in `auth_sessions` (logout revokes it); the signing key
// is derived from a random secret (0600 file in the state dir) and the current password, so
// changing the password invalidates every cookie; the CSRF token is an HMAC of the nonce.
import type { AppConfig } from "../settings/config.ts";
import { type AsyncQueries, type Db, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import { randomHex } from "../ids.ts";
import { stateSecretHex } from "./state_secret.ts";
import { constantTimeEqual, fromBase64Url, toBase64Url, verifyPassword } from "./password.ts";
import { createRateLimiter, type RateLimiter, type RateLimiterOptions } from "./rate_limit.ts";
import { createSharedRateLimiter } from "./shared_rate_limit.ts";
import { busOf } from "../replicas/bus.ts";

export const SESSION_COOKIE = "hermes_session";
export const CSRF_HEADER = "X-Hermes-CSRF-Token";
/** API.md: the login cookie lasts 30 days. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
/** The settings row holding the hash of a password set through the UI (lib/security/password.ts). */
export const PASSWORD_HASH_SETTING = "password_hash";
/** File in the state dir holding the random cookie-signing secret (mode 0600). */
export const SECRET_FILE = "session_secret";
/** Live login sessions kept at once; the oldest are revoked past this. */
const MAX_SESSIONS = 200;

/** Per-app security state: the signing secret and the rate limiters (never process-global). */
export interface Security {
  config: AppConfig;
  db: Db;
  clock: Clock;
  limits: {
    /**
     * Password logins: more than 5 failures per 60 s per (account, client) → 429, except for a
     * browser that proves an earlier sign-in (lib/security/login_throttle.ts). Passkey sign-ins
     * count here per client (lib/security/sign_in_routes.ts).
     */
    login: RateLimiter;
    /** POST /api/chat/start per client. */
    chatStart: RateLimiter;
    /** POST /api/upload per client. */
    upload: RateLimiter;
  };
  /** Cached secret bytes, derived keys and the console token (filled lazily). */
  cache: {
    secret?: Promise<Uint8Array>;
    keys: Map<string, Promise<CryptoKey>>;
    consoleToken?: Promise<string>;
  };
}

/** The authenticated state of one request, as middleware leaves it in `ctx.state.auth`. */
export interface AuthState {
  enabled: boolean;
  loggedIn: boolean;
  /** The login session's nonce (present when logged in with a cookie). */
  nonce?: string;
  /** The token browser requests must echo in `X-Hermes-CSRF-Token` (when logged in). */
  csrfToken?: string;
}

/** Build the security state of one app. */
export function createSecurity(config: AppConfig, db: Db, clock: Clock): Security {
  // Replicas share one database: their limits count there, or each would allow its own quota.
  const limiter = (name: string, opts: RateLimiterOptions) =>
    busOf(db).shared ? createSharedRateLimiter(db, name, opts) : createRateLimiter(opts);
  return {
    config,
    db,
    clock,
    limits: {
      login: limiter("login", { limit: 5, windowSeconds: 60, clock }),
      chatStart: limiter("chat_start", { limit: 30, windowSeconds: 60, clock }),
      upload: limiter("upload", { limit: 60, windowSeconds: 60, clock }),
    },
    cache: { keys: new Map() },
  };
}

/** The password hash stored through the settings UI, or null. */
export async function storedPasswordHash(db: AsyncQueries): Promise<string | null> {
  const row = await db.get<{ value: string }>(
    sql`SELECT value FROM settings WHERE key = ${PASSWORD_HASH_SETTING}`,
  );
  return row?.value ? row.value : null;
}

/** Auth is on when a password is configured in the environment or stored in settings. */
export async function authEnabled(sec: Pick<Security, "config" | "db">): Promise<boolean> {
  // The environment's password needs no query (the common case of a served console).
  return !!sec.config.password || await storedPasswordHash(sec.db) !== null;
}

/** Forget every login session (call after the password changes or is cleared). */
export async function revokeAllSessions(db: AsyncQueries): Promise<void> {
  await db.run(sql`DELETE FROM auth_sessions`);
}

/** The random signing secret: created once (0600), then read back on every start. */
function loadSecret(sec: Security): Promise<Uint8Array> {
  sec.cache.secret ??= stateSecretHex(sec.config.stateDir, SECRET_FILE, "the session secret")
    .then(hexToBytes);
  sec.cache.secret.catch(() => (sec.cache.secret = undefined));
  return sec.cache.secret;
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

async function hmac(key: CryptoKey, text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
}

async function importHmacKey(bytes: Uint8Array): Promise<CryptoKey> {
  return await crypto.subtle.importKey(
    "raw",
    bytes as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

/** Which password is in force: the environment's wins over a stored one. */
async function passwordIdentity(sec: Security): Promise<string | null> {
  if (sec.config.password) return `env:${sec.config.password}`;
  const hash = await storedPasswordHash(sec.db);
  return hash ? `hash:${hash}` : null;
}

/** The HMAC key for cookies and CSRF tokens under the current password (null: auth off). */
async function signingKey(sec: Security): Promise<CryptoKey | null> {
  const identity = await passwordIdentity(sec);
  if (identity === null) return null;
  let key = sec.cache.keys.get(identity);
  if (!key) {
    key = (async () => {
      const root = await importHmacKey(await loadSecret(sec));
      return importHmacKey(await hmac(root, `hermes-session-v1\0${identity}`));
    })();
    sec.cache.keys.clear(); // only the current password's key is ever needed
    sec.cache.keys.set(identity, key);
    key.catch(() => sec.cache.keys.delete(identity));
  }
  return await key;
}

/**
 * `text` signed (HMAC, base64url) under the current password's key; null while auth is off.
 * What it signs stops verifying when the password changes. Callers prefix their own label so
 * no two uses can stand in for each other (cookies sign `<nonce>.<expires>`, CSRF `csrf\0…`).
 */
export async function signForCurrentPassword(sec: Security, text: string): Promise<string | null> {
  const key = await signingKey(sec);
  return key ? toBase64Url(await hmac(key, text)) : null;
}

/**
 * Check a login attempt against the password in force. The environment password is compared
 * through HMACs of equal length (constant time); a stored one through its PBKDF2 hash.
 */
export async function checkPassword(sec: Security, password: unknown): Promise<boolean> {
  if (typeof password !== "string" || password === "" || password.length > 4096) return false;
  if (sec.config.password) {
    const key = await importHmacKey(await loadSecret(sec));
    const [a, b] = await Promise.all([
      hmac(key, `pw\0${password.normalize("NFC")}`),
      hmac(key, `pw\0${sec.config.password.normalize("NFC")}`),
    ]);
    return constantTimeEqual(a, b);
  }
  return await verifyPassword(password, await storedPasswordHash(sec.db));
}

/** Start a login session; returns the cookie value to set. */
export async function createLoginSession(sec: Security): Promise<string> {
  const key = await signingKey(sec);
  if (!key) throw new Error("createLoginSession() called while auth is disabled");
  const now = sec.clock();
  const nonce = randomHex(32);
  const expires = Math.floor(now + SESSION_TTL_SECONDS);
  // Expired sessions and those past the cap go in the same transaction the new one lands in.
  await sec.db.transaction(async (tx) => {
    await tx.run(sql`DELETE FROM auth_sessions WHERE expires_at <= ${now}`);
    await tx.run(
      sql`INSERT INTO auth_sessions (nonce, created_at, expires_at) VALUES (${nonce}, ${now}, ${expires})`,
    );
    await tx.run(
      sql`DELETE FROM auth_sessions WHERE nonce NOT IN
            (SELECT nonce FROM auth_sessions ORDER BY created_at DESC LIMIT ${MAX_SESSIONS})`,
    );
  });
  const payload = `${nonce}.${expires}`;
  return `${payload}.${toBase64Url(await hmac(key, payload))}`;
}

/** The value of one cookie from a Cookie header (first occurrence), or null. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * The login session a request carries, or null when the cookie is missing, malformed,
 * expired, wrongly signed (forged, or signed under an old password) or revoked.
 */
export async function readLoginSession(
  sec: Security,
  req: Request,
): Promise<{ nonce: string; csrfToken: string } | null> {
  const value = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  const m = value?.match(/^([0-9a-f]{32})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/);
  if (!m) return null;
  const [, nonce, expText, sigText] = m;
  const now = sec.clock();
  if (Number(expText) <= now) return null;
  const key = await signingKey(sec);
  if (!key) return null;
  const expected = await hmac(key, `${nonce}.${expText}`);
  if (!constantTimeEqual(expected, fromBase64Url(sigText))) return null;
  const row = await sec.db.get<{ expires_at: number }>(
    sql`SELECT expires_at FROM auth_sessions WHERE nonce = ${nonce}`,
  );
  if (!row || row.expires_at <= now) return null;
  return { nonce, csrfToken: toBase64Url(await hmac(key, `csrf\0${nonce}`)) };
}

/** Revoke the login session a request carries (logout). Unknown or absent cookies: no-op. */
export async function endLoginSession(sec: Security, req: Request): Promise<void> {
  const session = await readLoginSession(sec, req);
  if (session) await sec.db.run(sql`DELETE FROM auth_sessions WHERE nonce = ${session.nonce}`);
}

/** True when `token` is the CSRF token of the login session `expected` (constant time). */
export function csrfTokenMatches(expected: string, token: string | null): boolean {
  if (!token) return false;
  const enc = new TextEncoder();
  return constantTimeEqual(enc.encode(expected), enc.encode(token));
}

/** Set-Cookie for a new login session (Secure when the console is reached over https). */
export function sessionCookie(value: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${SESSION_TTL_SECONDS}; HttpOnly; ` +
    `SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Set-Cookie that removes the login cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
