// The proof that a state-changing request comes from the console's own page (or from a script
// the user handed the token): the X-Hermes-CSRF-Token header. Invariants: with auth off the
// token is a per-install secret kept in `<state dir>/csrf_token` (0600, out of the sandbox's
// reach) and rendered into each page's <meta name="hermes-csrf-token">; with auth on, a logged-in
// browser echoes its login session's token and a script (no Origin, no Sec-Fetch-Site) proves
// itself with the session cookie it logged in with; a missing or wrong proof is a 403.
import { ForbiddenError } from "../errors.ts";
import { type AuthState, CSRF_HEADER, csrfTokenMatches, type Security } from "./auth.ts";
import { isBrowserRequest, isUnsafeMethod } from "./request_guard.ts";
import { stateSecretHex } from "./state_secret.ts";

/** File in the state dir holding the console token (auth off); scripts read it (SECURITY.md). */
export const CONSOLE_TOKEN_FILE = "csrf_token";

/**
 * GET routes that change state: they need the proof like POST does. (The event streams in
 * GUARDED_GET_PATHS only read, so they keep just the same-origin check.)
 */
export const STATE_CHANGING_GET_PATHS: ReadonlySet<string> = new Set([
  "/api/chat/cancel",
  "/api/approval/inject_test",
]);

/**
 * Writes that need no proof: logging in proves itself with the password (or a passkey's
 * signature over a single-use challenge), logging out only ends the session whose cookie the
 * request carries, and a CSP report only reaches the log. All still pass the Origin check.
 */
const EXEMPT_PATHS: ReadonlySet<string> = new Set([
  // A browser files a CSP report on its own: no page script adds the token (it only logs).
  "/api/csp-report",
  "/api/auth/login",
  "/api/auth/logout",
  "/api/auth/passkey/options",
  "/api/auth/passkey/login",
]);

/** True when a request with this method and (decoded) path must carry the proof. */
export function needsProof(method: string, path: string): boolean {
  if (EXEMPT_PATHS.has(path)) return false;
  return isUnsafeMethod(method) || STATE_CHANGING_GET_PATHS.has(path);
}

/**
 * The console token of this install: created once (random, 0600) in the state dir, then read
 * back on every start, so a page rendered before a restart keeps working after it.
 */
export function consoleToken(sec: Security): Promise<string> {
  sec.cache.consoleToken ??= stateSecretHex(
    sec.config.stateDir,
    CONSOLE_TOKEN_FILE,
    "the console token",
  );
  sec.cache.consoleToken.catch(() => (sec.cache.consoleToken = undefined));
  return sec.cache.consoleToken;
}

/** The token a page rendered for this request carries in its <meta> (none on the login page). */
export async function pageToken(sec: Security, auth: AuthState): Promise<string | undefined> {
  if (auth.enabled) return auth.csrfToken;
  return await consoleToken(sec);
}

/**
 * Refuse (403) a state-changing request without the proof. With auth on this runs after the
 * login check, so `auth.loggedIn` is settled; the install token never stands in for a login.
 */
export async function checkRequestProof(
  sec: Security,
  req: Request,
  auth: AuthState,
): Promise<void> {
  const sent = req.headers.get(CSRF_HEADER);
  if (auth.enabled) {
    if (auth.loggedIn && auth.csrfToken) {
      // A script holding the login cookie got it with the password; a browser page must echo
      // its token (a foreign page can ride the cookie, never read the token).
      if (!isBrowserRequest(req) || csrfTokenMatches(auth.csrfToken, sent)) return;
    }
    throw new ForbiddenError(`Missing or invalid ${CSRF_HEADER} header`);
  }
  if (csrfTokenMatches(await consoleToken(sec), sent)) return;
  throw new ForbiddenError(
    `Missing or invalid ${CSRF_HEADER} header: a request that changes state must come from ` +
      `the console's own page, or carry the token kept in the state dir's ` +
      `${CONSOLE_TOKEN_FILE} file (SECURITY.md, "HTTP surface")`,
  );
}
