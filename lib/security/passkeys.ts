// Passkeys (WebAuthn) as a second way to sign in beside the password, through
// @simplewebauthn/server. Invariants: only while auth is on (a password is set); the RP ID and
// origin come from the request's Host after the DNS-rebinding check, never from the body; each
// challenge is single-use and expires (auth_challenges.ts) and is bound to that RP ID and
// origin; a login's signature counter must move forward; public keys never leave the server.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

/** The WebAuthn library loads on the first passkey ceremony, not at start. */
const webauthn = () => import("@simplewebauthn/server");
import { z } from "zod";
import type { AppConfig } from "../settings/config.ts";
import { AuthError, NotFoundError, ValidationError } from "../errors.ts";
import { authEnabled, type Security } from "./auth.ts";
import { putChallenge, takeChallenge } from "./auth_challenges.ts";
import { sql } from "../storage/db.ts";
import { checkHost, hostName } from "./request_guard.ts";
import { fromBase64Url } from "./password.ts";

/** Seconds a ceremony may take: the browser's 60 s prompt plus slack for the round trips. */
const CHALLENGE_TTL_SECONDS = 120;
/** Passkeys one console keeps; registering past this is refused. */
const MAX_PASSKEYS = 20;
/** The console has one user; every passkey belongs to it (WebAuthn needs a user handle). */
const USER_ID = new TextEncoder().encode("hermes-console-user");
/**
 * EdDSA, ES256, RS256: signatures small enough for the 8 KB pre-login body cap (post-quantum
 * ML-DSA ones run to several KB).
 */
const ALGORITHMS = [-8, -7, -257];

/** What the Control Center lists: never the public key. */
export interface PasskeyInfo {
  id: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** Where a ceremony happens: the RP ID (host name) and the page origin the browser reports. */
export interface RpContext {
  rpID: string;
  origin: string;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const b64 = (max: number) => z.string().min(1).max(max).regex(B64URL, "must be base64url");

/** A browser's credential as @simplewebauthn/browser serializes it, with sizes capped. */
const CredentialBase = {
  id: b64(1024),
  rawId: b64(1024),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};
const Transports = z.array(z.string().max(32)).max(8).optional();

export const RegistrationBody = z.object({
  name: z.string().trim().max(100).optional(),
  response: z.object({
    ...CredentialBase,
    response: z.object({
      clientDataJSON: b64(4096),
      attestationObject: b64(16384),
      transports: Transports,
    }).passthrough(),
  }),
});

export const LoginBody = z.object({
  response: z.object({
    ...CredentialBase,
    response: z.object({
      clientDataJSON: b64(4096),
      authenticatorData: b64(2048),
      signature: b64(1024),
      userHandle: z.string().max(512).regex(B64URL).optional(),
    }),
  }),
});

/** Refuse passkey routes while auth is off: a passkey would guard nothing. */
export async function requirePasskeyAuth(sec: Security): Promise<void> {
  if (!(await authEnabled(sec))) {
    throw new ValidationError(
      "Passkeys need sign-in to be on: set a password first (Control Center → System)",
    );
  }
}

/**
 * The RP ID and origin of this request. The Host passed the rebinding check (it is a name
 * the admin allowed); an IP address cannot be an RP ID, so the console must be reached by a
 * name such as localhost.
 */
export function rpContext(req: Request, url: URL, config: AppConfig): RpContext {
  checkHost(req, config);
  const host = (req.headers.get("host") ?? url.host).trim().toLowerCase();
  const rpID = hostName(host);
  if (rpID.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(rpID)) {
    throw new ValidationError(
      `Passkeys need the console reached by a host name, not the IP address "${rpID}" ` +
        `(use http://localhost:… or a name in HERMES_WEBUI_ALLOWED_HOSTS)`,
    );
  }
  return { rpID, origin: `${url.protocol}//${host}` };
}

interface PasskeyRow {
  id: string;
  name: string;
  public_key: Uint8Array;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number | null;
}

/** The registered passkeys, newest first. */
export async function listPasskeys(sec: Pick<Security, "db">): Promise<PasskeyInfo[]> {
  const rows = await sec.db.all<PasskeyInfo>(
    sql`SELECT id, name, created_at, last_used_at FROM passkeys ORDER BY created_at DESC`,
  );
  return rows.map((r) => ({ ...r }));
}

/** True when at least one passkey is registered and auth is on (login offers the button). */
export async function passkeysEnabled(sec: Pick<Security, "db" | "config">): Promise<boolean> {
  if (!(await authEnabled(sec))) return false;
  return await sec.db.get(sql`SELECT 1 AS one FROM passkeys LIMIT 1`) !== undefined;
}

/** The registered credentials' ids and transports (what a ceremony lists). */
function credentials(sec: Pick<Security, "db">) {
  return sec.db.all<{ id: string; transports: string }>(sql`SELECT id, transports FROM passkeys`);
}

/** Options for navigator.credentials.create(), with a fresh challenge bound to `rp`. */
export async function startRegistration(sec: Security, rp: RpContext, rpName: string) {
  await requirePasskeyAuth(sec);
  const existing = await credentials(sec);
  if (existing.length >= MAX_PASSKEYS) {
    throw new ValidationError(`Up to ${MAX_PASSKEYS} passkeys can be registered; remove one first`);
  }
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: rpName.slice(0, 64) || "Hermes Console",
    rpID: rp.rpID,
    userID: USER_ID,
    userName: "console",
    userDisplayName: rpName.slice(0, 64) || "Hermes Console",
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: parseTransports(c) })),
    // The key's PIN or biometric, not only its presence: a stolen unlocked key signs in nobody.
    authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
    supportedAlgorithmIDs: ALGORITHMS,
    timeout: 60_000,
  });
  await putChallenge(
    sec.db,
    sec.clock,
    "passkey_register",
    options.challenge,
    { ...rp },
    CHALLENGE_TTL_SECONDS,
  );
  return options;
}

/** Verify a new credential against its challenge and store it; returns its listing. */
export async function finishRegistration(
  sec: Security,
  rp: RpContext,
  body: z.infer<typeof RegistrationBody>,
): Promise<PasskeyInfo> {
  await requirePasskeyAuth(sec);
  const response = body.response as unknown as RegistrationResponseJSON;
  const expected = await takeCeremony(
    sec,
    "passkey_register",
    response.response.clientDataJSON,
    rp,
  );
  let verification;
  try {
    verification = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch (err) {
    throw new ValidationError(`Passkey registration refused: ${(err as Error).message}`);
  }
  if (!verification.verified) throw new ValidationError("Passkey registration refused");
  const { credential } = verification.registrationInfo;
  const now = sec.clock();
  const name = body.name || `Passkey ${new Date(now * 1000).toISOString().slice(0, 10)}`;
  // A known id is skipped, not a failed insert: on PostgreSQL a failed statement would abort an
  // enclosing transaction.
  const transports = JSON.stringify(credential.transports ?? []);
  const res = await sec.db.run(
    sql`INSERT INTO passkeys (id, name, public_key, counter, transports, created_at)
        VALUES (${credential.id}, ${name}, ${credential.publicKey}, ${credential.counter},
          ${transports}, ${now})
        ON CONFLICT (id) DO NOTHING`,
  );
  if (Number(res.changes) === 0) throw new ValidationError("This passkey is already registered");
  return { id: credential.id, name, created_at: now, last_used_at: null };
}

/** Options for navigator.credentials.get(): a fresh challenge and the known credentials. */
export async function startLogin(sec: Security, rp: RpContext) {
  await requirePasskeyAuth(sec);
  const creds = await credentials(sec);
  if (creds.length === 0) throw new ValidationError("No passkeys are registered");
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: creds.map((c) => ({ id: c.id, transports: parseTransports(c) })),
    userVerification: "required",
    timeout: 60_000,
  });
  await putChallenge(
    sec.db,
    sec.clock,
    "passkey_login",
    options.challenge,
    { ...rp },
    CHALLENGE_TTL_SECONDS,
  );
  return options;
}

/**
 * Verify a sign-in assertion: its challenge (single-use, same RP and origin), the signature
 * under the stored public key and a counter that moved forward. Any failure is a 401.
 */
export async function finishLogin(
  sec: Security,
  rp: RpContext,
  body: z.infer<typeof LoginBody>,
): Promise<void> {
  await requirePasskeyAuth(sec);
  const response = body.response as unknown as AuthenticationResponseJSON;
  let expected: { challenge: string };
  try {
    expected = await takeCeremony(sec, "passkey_login", response.response.clientDataJSON, rp);
  } catch (err) {
    throw new AuthError((err as Error).message);
  }
  const row = await sec.db.get<PasskeyRow>(
    sql`SELECT id, name, public_key, counter, transports, created_at, last_used_at
        FROM passkeys WHERE id = ${response.id}`,
  );
  if (!row) throw new AuthError("Passkey sign-in failed: this passkey is not registered here");
  let verification;
  try {
    verification = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: row.id,
        publicKey: new Uint8Array(row.public_key),
        counter: row.counter,
        transports: parseTransports(row),
      },
      requireUserVerification: true,
    });
  } catch (err) {
    throw new AuthError(`Passkey sign-in failed: ${(err as Error).message}`);
  }
  if (!verification.verified) throw new AuthError("Passkey sign-in failed");
  // Conditional on the counter read above: of two racing uses of one assertion, one wins.
  const updated = await sec.db.run(
    sql`UPDATE passkeys SET counter = ${verification.authenticationInfo.newCounter},
          last_used_at = ${sec.clock()}
        WHERE id = ${row.id} AND counter = ${row.counter}`,
  );
  if (updated.changes !== 1) throw new AuthError("Passkey sign-in failed: counter changed");
}

/** Forget one passkey. Unknown id → 404. */
export async function removePasskey(sec: Pick<Security, "db">, id: string): Promise<void> {
  const res = await sec.db.run(sql`DELETE FROM passkeys WHERE id = ${id}`);
  if (res.changes === 0) throw new NotFoundError(`Passkey "${id.slice(0, 40)}" not found`);
}

/**
 * Read the challenge a response signed (clientDataJSON) and take its pending ceremony. It
 * must exist, be unused and unexpired, and have been issued for this same RP ID and origin.
 */
async function takeCeremony(
  sec: Security,
  kind: "passkey_register" | "passkey_login",
  clientDataJSON: string,
  rp: RpContext,
): Promise<{ challenge: string }> {
  let challenge: unknown;
  try {
    challenge = JSON.parse(new TextDecoder().decode(fromBase64Url(clientDataJSON))).challenge;
  } catch {
    throw new ValidationError("Malformed passkey response: clientDataJSON is not JSON");
  }
  if (typeof challenge !== "string" || !B64URL.test(challenge)) {
    throw new ValidationError("Malformed passkey response: no challenge");
  }
  const stored = await takeChallenge(sec.db, sec.clock, kind, challenge);
  if (!stored) throw new ValidationError("Passkey challenge expired or already used; try again");
  if (stored.rpID !== rp.rpID || stored.origin !== rp.origin) {
    throw new ValidationError("Passkey challenge was issued for another address");
  }
  return { challenge };
}

function parseTransports(row: { transports: string }) {
  try {
    const list = JSON.parse(row.transports);
    return Array.isArray(list) ? list.filter((t) => typeof t === "string") : undefined;
  } catch {
    return undefined;
  }
}
