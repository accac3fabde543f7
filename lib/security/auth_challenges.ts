// The pending state of a sign-in ceremony (a passkey challenge, an OpenID Connect state with
// its nonce and PKCE verifier), kept in `auth_challenges`. Invariants: each is single-use (taken
// by one DELETE … RETURNING, so two requests cannot both win it), expires after `ttlSeconds`,
// and the table stays bounded (expired rows go first, then the oldest past MAX_PENDING).
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";

/** Ceremonies that may be pending at once; a flood of options requests evicts the oldest. */
const MAX_PENDING = 256;

export type ChallengeKind = "passkey_register" | "passkey_login" | "oidc";

/** Remember a ceremony's state under `id` (the challenge or the OIDC `state`). */
export async function putChallenge(
  db: AsyncQueries,
  clock: Clock,
  kind: ChallengeKind,
  id: string,
  data: Record<string, unknown>,
  ttlSeconds: number,
): Promise<void> {
  const now = clock();
  const json = JSON.stringify(data);
  await db.transaction(async (tx) => {
    await tx.run(sql`DELETE FROM auth_challenges WHERE expires_at <= ${now}`);
    await tx.run(
      sql`INSERT INTO auth_challenges (id, kind, data, expires_at)
          VALUES (${id}, ${kind}, ${json}, ${now + ttlSeconds})
          ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, data = excluded.data,
            expires_at = excluded.expires_at`,
    );
    await tx.run(
      sql`DELETE FROM auth_challenges WHERE id NOT IN
            (SELECT id FROM auth_challenges ORDER BY expires_at DESC LIMIT ${MAX_PENDING})`,
    );
  });
}

/**
 * Take (and forget) the ceremony state stored under `id` for `kind`; null when it was never
 * issued, was already used, belongs to another kind of ceremony or has expired.
 */
export async function takeChallenge(
  db: AsyncQueries,
  clock: Clock,
  kind: ChallengeKind,
  id: string,
): Promise<Record<string, unknown> | null> {
  if (typeof id !== "string" || id === "" || id.length > 512) return null;
  const row = await db.get<{ data: string; expires_at: number }>(
    sql`DELETE FROM auth_challenges WHERE id = ${id} AND kind = ${kind}
        RETURNING data, expires_at`,
  );
  if (!row || row.expires_at <= clock()) return null;
  return JSON.parse(row.data) as Record<string, unknown>;
}
