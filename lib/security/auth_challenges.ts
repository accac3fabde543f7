// The pending state of a sign-in ceremony (a passkey challenge, an OpenID Connect state with
// its nonce and PKCE verifier), kept in `auth_challenges`. Invariants: each is single-use (taken
// by one DELETE … RETURNING, so two requests cannot both win it), expires after `ttlSeconds`,
// and the table stays bounded (expired rows go first, then the oldest past MAX_PENDING).
import type { Db } from "../storage/db.ts";
import type { Clock } from "../ids.ts";

/** Ceremonies that may be pending at once; a flood of options requests evicts the oldest. */
const MAX_PENDING = 256;

export type ChallengeKind = "passkey_register" | "passkey_login" | "oidc";

/** Remember a ceremony's state under `id` (the challenge or the OIDC `state`). */
export function putChallenge(
  db: Db,
  clock: Clock,
  kind: ChallengeKind,
  id: string,
  data: Record<string, unknown>,
  ttlSeconds: number,
): void {
  const now = clock();
  db.prepare("DELETE FROM auth_challenges WHERE expires_at <= ?").run(now);
  db.prepare(
    `INSERT INTO auth_challenges (id, kind, data, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, data = excluded.data,
       expires_at = excluded.expires_at`,
  )
    .run(id, kind, JSON.stringify(data), now + ttlSeconds);
  db.prepare(
    `DELETE FROM auth_challenges WHERE id NOT IN
       (SELECT id FROM auth_challenges ORDER BY expires_at DESC LIMIT ?)`,
  ).run(MAX_PENDING);
}

/**
 * Take (and forget) the ceremony state stored under `id` for `kind`; null when it was never
 * issued, was already used, belongs to another kind of ceremony or has expired.
 */
export function takeChallenge(
  db: Db,
  clock: Clock,
  kind: ChallengeKind,
  id: string,
): Record<string, unknown> | null {
  if (typeof id !== "string" || id === "" || id.length > 512) return null;
  const row = db.prepare(
    "DELETE FROM auth_challenges WHERE id = ? AND kind = ? RETURNING data, expires_at",
  ).get(id, kind) as { data: string; expires_at: number } | undefined;
  if (!row || row.expires_at <= clock()) return null;
  return JSON.parse(row.data) as Record<string, unknown>;
}
