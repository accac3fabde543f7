// Sign-in through an OpenID Connect provider (authorization code flow + PKCE) with
// openid-client. Invariants: only while auth is on and `config.oidc` is set; state, nonce and
// the PKCE verifier are single-use and expire (auth_challenges.ts); every fetch to the issuer
// (discovery, JWKS, token) goes through the SSRF guard (the admin's issuer may be on loopback
// or a private network, metadata/link-local never); the state is bound to the browser that
// started the sign-in (a cookie), so a callback URL handed to someone else logs nobody in; only
// an allowlisted verified email or group gets a session.
import type * as OidcClient from "openid-client";

/** openid-client loads on the first sign-in, not at start (a console without OIDC never needs it). */
const loadClient = () => import("openid-client");
import type { AppConfig, OidcConfig } from "../settings/config.ts";
import { ValidationError } from "../errors.ts";
import { authEnabled, readCookie, type Security } from "./auth.ts";
import { constantTimeEqual } from "./password.ts";
import { putChallenge, takeChallenge } from "./auth_challenges.ts";
import { checkHost, safeNextPath } from "./request_guard.ts";
import { guardedFetch } from "./url_guard.ts";

/** The callback route (the provider redirects the browser here). */
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
/** Seconds a user may spend at the provider before the state expires. */
const STATE_TTL_SECONDS = 600;
/** Cookie naming the sign-in this browser started (its state); only the OIDC routes see it. */
export const OIDC_STATE_COOKIE = "hermes_oidc_state";

/** Set-Cookie binding a sign-in's state to this browser (Lax: sent on the provider's redirect). */
export function oidcStateCookie(state: string, secure: boolean): string {
  return `${OIDC_STATE_COOKIE}=${state}; Path=/api/auth/oidc/; Max-Age=${STATE_TTL_SECONDS}; ` +
    `HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * The answer that starts a sign-in (GET /api/auth/oidc/login and the original's …/start): a 302
 * to the provider, with the state cookie that binds the sign-in to this browser.
 */
export async function oidcStartResponse(sec: Security, req: Request, url: URL): Promise<Response> {
  const start = await startOidcLogin(sec, req, url, url.searchParams.get("next"));
  return new Response(null, {
    status: 302,
    headers: {
      location: start.url.href,
      "set-cookie": oidcStateCookie(start.state, url.protocol === "https:"),
      "cache-control": "no-store",
    },
  });
}

/** Set-Cookie that forgets the state cookie (the callback ran, whatever its outcome). */
export function clearedOidcStateCookie(secure: boolean): string {
  return `${OIDC_STATE_COOKIE}=; Path=/api/auth/oidc/; Max-Age=0; HttpOnly; SameSite=Lax` +
    (secure ? "; Secure" : "");
}

/** A sign-in the provider vouched for but the allowlist refused, or a broken ceremony. */
export class OidcRefusedError extends Error {
  override name = "OidcRefusedError";
}

/** True when sign-in through the configured provider is offered (auth on, issuer set). */
export async function oidcEnabled(sec: Pick<Security, "config" | "db">): Promise<boolean> {
  return !!sec.config.oidc && await authEnabled(sec);
}

/** The provider's name for "Sign in with <name>". */
export function oidcProviderName(config: AppConfig): string {
  return config.oidc?.providerName ?? "";
}

/** The issuer's metadata, discovered once per app (failures are not kept). */
const discovered = new WeakMap<Security, Promise<OidcClient.Configuration>>();

/** fetch for openid-client: the SSRF guard with private addresses allowed (admin's issuer). */
const issuerFetch: OidcClient.CustomFetch = (url, options) =>
  guardedFetch(url, {
    method: options.method,
    headers: options.headers,
    body: options.body as BodyInit | undefined,
    signal: options.signal ?? AbortSignal.timeout(10_000),
  }, { allowPrivate: true, maxRedirects: 3 });

function isLoopbackUrl(raw: string): boolean {
  try {
    const h = new URL(raw).hostname;
    return h === "localhost" || h === "[::1]" || /^127\./.test(h);
  } catch {
    return false;
  }
}

function configuration(sec: Security, oidc: OidcConfig): Promise<OidcClient.Configuration> {
  let pending = discovered.get(sec);
  if (!pending) {
    pending = (async () => {
      const client = await loadClient();
      // Plain http only for an issuer on this machine (a local test or dev provider).
      const insecure = new URL(oidc.issuer).protocol === "http:" && isLoopbackUrl(oidc.issuer);
      const config = await client.discovery(
        new URL(oidc.issuer),
        oidc.clientId,
        oidc.clientSecret,
        undefined,
        {
          [client.customFetch]: issuerFetch,
          execute: insecure ? [client.allowInsecureRequests] : [],
          timeout: 10,
        },
      );
      config[client.customFetch] = issuerFetch;
      return config;
    })();
    discovered.set(sec, pending);
    pending.catch(() => discovered.delete(sec));
  }
  return pending;
}

async function requireOidc(sec: Security): Promise<OidcConfig> {
  const oidc = sec.config.oidc;
  if (!oidc) throw new ValidationError("Sign-in with OpenID Connect is not configured (auth.oidc)");
  if (!(await authEnabled(sec))) {
    throw new ValidationError(
      "Sign-in with OpenID Connect needs sign-in to be on: set a password first",
    );
  }
  return oidc;
}

/**
 * The provider's authorization URL for a new sign-in, with fresh state, nonce and PKCE
 * challenge; remembers them (and where to go next) under the state.
 */
export async function startOidcLogin(
  sec: Security,
  req: Request,
  url: URL,
  next: string | null,
): Promise<{ url: URL; state: string }> {
  const oidc = await requireOidc(sec);
  checkHost(req, sec.config);
  const host = (req.headers.get("host") ?? url.host).trim().toLowerCase();
  const redirectUri = oidc.redirectUri ?? `${url.protocol}//${host}${OIDC_CALLBACK_PATH}`;
  let config: OidcClient.Configuration;
  try {
    config = await configuration(sec, oidc);
  } catch (err) {
    throw new OidcRefusedError(
      `Cannot reach the sign-in provider ${oidc.issuer}: ${(err as Error).message}`,
    );
  }
  const client = await loadClient();
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await putChallenge(sec.db, sec.clock, "oidc", state, {
    verifier,
    nonce,
    redirectUri,
    next: safeNextPath(next),
  }, STATE_TTL_SECONDS);
  const target = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: oidc.scopes.join(" "),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url: target, state };
}

/** Who signed in, for the log. */
export interface OidcIdentity {
  subject: string;
  email: string | null;
  next: string;
}

/**
 * Finish a sign-in from the provider's redirect: take the state (single-use), redeem the code
 * with the PKCE verifier, check the ID token's nonce, then the allowlist. Throws
 * OidcRefusedError with a message fit to show the user.
 */
export async function finishOidcLogin(
  sec: Security,
  req: Request,
  url: URL,
): Promise<OidcIdentity> {
  const oidc = await requireOidc(sec);
  const state = url.searchParams.get("state") ?? "";
  const mine = readCookie(req.headers.get("cookie"), OIDC_STATE_COOKIE) ?? "";
  const enc = new TextEncoder();
  if (state === "" || !constantTimeEqual(enc.encode(mine), enc.encode(state))) {
    throw new OidcRefusedError(
      "This sign-in was not started in this browser (or it expired). Start again from the " +
        "login page.",
    );
  }
  const pending = await takeChallenge(sec.db, sec.clock, "oidc", state);
  if (!pending) {
    throw new OidcRefusedError(
      "This sign-in link has expired or was already used. Start again from the login page.",
    );
  }
  const providerError = url.searchParams.get("error");
  if (providerError) {
    const detail = url.searchParams.get("error_description") ?? providerError;
    throw new OidcRefusedError(`The provider did not sign you in: ${detail.slice(0, 200)}`);
  }
  const config = await configuration(sec, oidc);
  const client = await loadClient();
  // The URL the provider redirected to, as registered (behind a proxy url.origin may differ).
  const current = new URL(String(pending.redirectUri));
  current.search = url.search;
  let claims: OidcClient.IDToken | undefined;
  let accessToken = "";
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: String(pending.verifier),
      expectedState: state,
      expectedNonce: String(pending.nonce),
      idTokenExpected: true,
    });
    claims = tokens.claims();
    accessToken = tokens.access_token;
  } catch (err) {
    throw new OidcRefusedError(`Sign-in could not be verified: ${(err as Error).message}`);
  }
  if (!claims) throw new OidcRefusedError("The provider returned no ID token");
  // Providers may keep email and groups out of the ID token (scope claims belong to userinfo).
  if (typeof claims.email !== "string" || !Array.isArray(claims.groups)) {
    try {
      claims = { ...claims, ...(await client.fetchUserInfo(config, accessToken, claims.sub)) };
    } catch { /* the ID token's claims stand alone */ }
  }
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : null;
  const emailOk = email !== null && claims.email_verified !== false &&
    oidc.allowedEmails.includes(email);
  const groups = Array.isArray(claims.groups) ? claims.groups.map(String) : [];
  const groupOk = groups.some((g) => oidc.allowedGroups.includes(g));
  if (!emailOk && !groupOk) {
    throw new OidcRefusedError(
      `${email ?? `The account "${String(claims.sub).slice(0, 80)}"`} is not allowed to use ` +
        `this console. Ask its administrator to add it to auth.oidc.allowed_emails.`,
    );
  }
  return { subject: String(claims.sub), email, next: String(pending.next ?? "/") };
}
