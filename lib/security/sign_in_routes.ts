// Checks shared by the passkey and OpenID Connect routes. Everything under /api/auth/ is
// public (request_guard.ts isPublicPath), so a route that manages sign-in methods must insist
// on a login itself; a pre-auth sign-in route counts each attempt like the password login.
import type { AuthState, Security } from "./auth.ts";
import { AuthError, RateLimitError } from "../errors.ts";

/** 401 unless the request carries a valid login (or auth is off). */
export function requireLoggedIn(state: Record<string, unknown>): AuthState {
  const auth = state.auth as AuthState | undefined;
  if (!auth?.loggedIn) throw new AuthError("Authentication required");
  return auth;
}

/** Count a sign-in attempt against the login limit (5 per 60 s per client); 429 past it. */
export async function countSignInAttempt(sec: Security, client: string): Promise<void> {
  const attempt = await sec.limits.login.hit(client);
  if (!attempt.ok) {
    throw new RateLimitError(
      `Too many failed sign-in attempts; try again in ${attempt.retryAfterSeconds} s`,
      attempt.retryAfterSeconds,
    );
  }
}
