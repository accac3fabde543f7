// Password-login throttling that nobody sharing the owner's address can turn into a lockout.
// Invariants: failures count per (account, client) in the login limiter (5 per 60 s; replicas
// count in the database), where the client is this browser's device cookie when it carries a
// valid one and its network address otherwise; past the limit a guess gets 429 without being
// checked; a key that locks writes one WARN line naming client and account, never a password.
//
// Why this design:
// - An address is not a person: every process on the host reaches the console from 127.0.0.1,
//   and everyone behind one proxy shares its address. A lock keyed on it alone (as before) let
//   any local process lock the owner out with six wrong passwords.
// - The password cannot be the way past the lock: if a right password always got in, the limit
//   would throttle nothing (every guess checked; 429 would just mean "wrong").
// - The device cookie (hermes_device) is what tells the owner's browsers from a process that
//   only shares their address. It is set by every successful login, signed under the current
//   password's key (auth.ts signForCurrentPassword), so it cannot be forged without the state
//   secret and stops counting when the password changes. A browser holding one is counted on
//   its own key, which nobody else can add failures to: the address's lock never reaches it,
//   and its own wrong passwords (or a thief's, with a copied cookie) still meet the limit. It
//   is HttpOnly, SameSite=Strict, scoped to /api/auth/, and outlives logout (that is the point).
// - Left as before: a browser that never signed in with the current password, sharing an
//   address with someone guessing right now, waits for the window (60 s after the guessing).
import type { Logger } from "../log.ts";
import { RateLimitError } from "../errors.ts";
import type { RateDecision } from "./rate_limit.ts";
import { readCookie, type Security, signForCurrentPassword } from "./auth.ts";
import { constantTimeEqual } from "./password.ts";
import { randomHex } from "../ids.ts";

/** The console has one password, so one account: the owner's. */
export const LOGIN_ACCOUNT = "owner";
export const DEVICE_COOKIE = "hermes_device";
/** A browser stays known for a year after its last successful login. */
const DEVICE_TTL_SECONDS = 365 * 24 * 3600;

/** One password attempt, counted. */
export interface LoginAttempt {
  account: string;
  client: string;
  /** The limiter key: failures are counted per (account, device or address). */
  key: string;
  /** The id of the request's valid device cookie (an earlier login with this password). */
  device: string | null;
  /** The limiter's answer when the attempt was counted (not ok: the key was already locked). */
  decision: RateDecision;
}

/** The limiter key of `account` from a known `device`, else from the address `client`. */
export function loginKey(account: string, client: string, device: string | null): string {
  return device ? `${account}|device:${device}` : `${account}|${client}`;
}

/**
 * Count one password attempt from `client` before its password is checked (so parallel guesses
 * cannot pass the limit). Past the limit: RateLimitError (429), the password unchecked.
 */
export async function beginLoginAttempt(
  sec: Security,
  req: Request,
  client: string,
  account = LOGIN_ACCOUNT,
): Promise<LoginAttempt> {
  const device = await deviceProof(sec, req);
  const key = loginKey(account, client, device);
  const decision = await sec.limits.login.hit(key);
  if (!decision.ok) throw tooMany(decision);
  return { account, client, key, device, decision };
}

/** A wrong password (the caller answers 401). The one that fills the window logs the lock. */
export async function failedLoginAttempt(
  sec: Security,
  log: Logger,
  attempt: LoginAttempt,
): Promise<void> {
  const { client, account, decision } = attempt;
  // A device id is a bearer secret: only a prefix reaches the log, enough to tell browsers apart.
  const device = attempt.device ? { device: attempt.device.slice(0, 8) } : {};
  log.warn("Failed login attempt", { client, account, ...device });
  const limiter = sec.limits.login;
  if (decision.count >= limiter.limit) {
    const now = await limiter.peek(attempt.key);
    log.warn("Login locked: too many failed passwords", {
      client,
      account,
      ...device,
      failures: decision.count,
      window_seconds: limiter.windowSeconds,
      retry_after_seconds: now.retryAfterSeconds,
    });
  }
}

/** A right password: forget the key's failures; answers the Set-Cookie marking this browser. */
export async function succeededLoginAttempt(
  sec: Security,
  attempt: LoginAttempt,
  secure: boolean,
): Promise<string> {
  await sec.limits.login.reset(attempt.key);
  return await deviceCookie(sec, secure);
}

function tooMany(decision: RateDecision): RateLimitError {
  return new RateLimitError(
    `Too many failed login attempts; try again in ${decision.retryAfterSeconds} s`,
    decision.retryAfterSeconds,
  );
}

/** Set-Cookie for a new device proof: `<id>.<expires>.<HMAC>` under the current password. */
async function deviceCookie(sec: Security, secure: boolean): Promise<string> {
  const payload = `${randomHex(32)}.${Math.floor(sec.clock() + DEVICE_TTL_SECONDS)}`;
  const sig = await signForCurrentPassword(sec, `device\0${payload}`);
  return `${DEVICE_COOKIE}=${payload}.${sig}; Path=/api/auth/; Max-Age=${DEVICE_TTL_SECONDS}; ` +
    `HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * The id of the request's device cookie when it is well formed, unexpired and signed under the
 * current password; null otherwise (absent, forged, expired, or from before a password change).
 */
async function deviceProof(sec: Security, req: Request): Promise<string | null> {
  const value = readCookie(req.headers.get("cookie"), DEVICE_COOKIE);
  const m = value?.match(/^(([0-9a-f]{32})\.(\d{1,12}))\.([A-Za-z0-9_-]{43})$/);
  if (!m) return null;
  const [, payload, id, expires, sig] = m;
  if (Number(expires) <= sec.clock()) return null;
  const expected = await signForCurrentPassword(sec, `device\0${payload}`);
  if (!expected) return null;
  const enc = new TextEncoder();
  return constantTimeEqual(enc.encode(expected), enc.encode(sig)) ? id : null;
}
