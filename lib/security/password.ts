// Password hashing for the console's login: PBKDF2-SHA256 via WebCrypto with a random salt.
// Invariants: the stored form is self-describing (`pbkdf2-sha256$<iterations>$<salt>$<hash>`,
// base64url) so the cost can rise later; comparisons are constant-time; the password itself
// is never stored, logged or returned.

/** OWASP's 2023 floor for PBKDF2-HMAC-SHA256 is 600k; 310k keeps logins < 0.5 s on small hosts. */
export const PBKDF2_ITERATIONS = 310_000;
const MIN_ITERATIONS = 210_000;
/** A stored hash claiming more than this is refused: a tampered value must not become a DoS. */
const MAX_ITERATIONS = 5_000_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const SCHEME = "pbkdf2-sha256";

export function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Compare two byte strings in time that depends only on their (public) lengths. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password.normalize("NFC")),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    HASH_BYTES * 8,
  );
  return new Uint8Array(bits);
}

/**
 * Hash a password for storage (the settings table's `password_hash`). Slow on purpose: a
 * stolen database must not give the password away cheaply. Unicode is NFC-normalised so the
 * same password typed on different keyboards matches.
 */
export async function hashPassword(
  password: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<string> {
  if (typeof password !== "string" || password === "") {
    throw new TypeError("hashPassword() needs a non-empty password");
  }
  const n = Math.max(MIN_ITERATIONS, Math.floor(iterations));
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, n);
  return `${SCHEME}$${n}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

/** True when `stored` looks like a value produced by `hashPassword`. */
export function isPasswordHash(stored: unknown): stored is string {
  return typeof stored === "string" &&
    /^pbkdf2-sha256\$\d{6,7}\$[A-Za-z0-9_-]{16,}\$[A-Za-z0-9_-]{40,}$/.test(stored);
}

/**
 * Check `password` against a stored hash. Malformed or tampered hashes (unknown scheme, an
 * iteration count outside the sane range) never match and never throw.
 */
export async function verifyPassword(password: unknown, stored: unknown): Promise<boolean> {
  if (typeof password !== "string" || password === "" || !isPasswordHash(stored)) return false;
  const [, iterText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterText);
  if (!Number.isSafeInteger(iterations) || iterations < MIN_ITERATIONS) return false;
  if (iterations > MAX_ITERATIONS) return false;
  let salt: Uint8Array, expected: Uint8Array;
  try {
    salt = fromBase64Url(saltText);
    expected = fromBase64Url(hashText);
  } catch {
    return false;
  }
  if (expected.length !== HASH_BYTES) return false;
  return constantTimeEqual(await derive(password, salt, iterations), expected);
}
