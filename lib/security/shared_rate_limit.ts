// The rate limiter replicas share: the same sliding window as lib/security/rate_limit.ts, but
// its hits are rows in rate_hits, so a client spreading its attempts over several console
// processes behind a load balancer meets one limit. Invariants: a key's check-and-record is
// atomic — on PostgreSQL one call of hermes_rate_hit() (lib/storage/migrations.ts, step 19),
// which takes an advisory lock on (limiter, key) inside the server, so two replicas cannot both
// admit the last allowed hit and no lock waits on a process's event loop; on SQLite one
// transaction (its one connection runs one at a time). Old hits are deleted as they leave the
// window.
import { type AsyncQueries, sql } from "../storage/db.ts";
import {
  type RateDecision,
  rateDecision,
  type RateLimiter,
  type RateLimiterOptions,
} from "./rate_limit.ts";

export function createSharedRateLimiter(
  db: AsyncQueries,
  name: string,
  opts: RateLimiterOptions,
): RateLimiter {
  const { limit, windowSeconds, clock } = opts;

  const hits = async (tx: AsyncQueries, key: string, now: number): Promise<number[]> => {
    await tx.run(
      sql`DELETE FROM rate_hits
          WHERE limiter = ${name} AND key = ${key} AND at <= ${now - windowSeconds}`,
    );
    const rows = await tx.all<{ at: number }>(
      sql`SELECT at FROM rate_hits WHERE limiter = ${name} AND key = ${key} ORDER BY at`,
    );
    return rows.map((r) => Number(r.at));
  };

  const decide = (list: number[], now: number, ok: boolean): RateDecision =>
    rateDecision(list, now, ok, opts);

  // SQLite needs no lock: its one connection runs one transaction at a time.
  const locked = <T>(key: string, fn: (tx: AsyncQueries) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      if (tx.backend === "postgres") {
        await tx.get(
          sql`SELECT pg_advisory_xact_lock(hashtext(CAST(${`${name}:${key}`} AS TEXT)))`,
        );
      }
      return await fn(tx);
    });

  /** PostgreSQL: prune, count and (when `record` and allowed) insert, in one statement. */
  const atomically = async (key: string, record: boolean): Promise<RateDecision> => {
    const now = clock();
    const row = await db.get<{ admitted: boolean; hit_times: number[] }>(
      sql`SELECT admitted, hit_times FROM hermes_rate_hit(
            CAST(${name} AS TEXT), CAST(${key} AS TEXT), CAST(${now} AS DOUBLE PRECISION),
            CAST(${windowSeconds} AS DOUBLE PRECISION), CAST(${limit} AS BIGINT),
            CAST(${record} AS BOOLEAN))`,
    );
    const list = (row?.hit_times ?? []).map(Number);
    return decide(list, now, row?.admitted ?? false);
  };
  return {
    limit,
    windowSeconds,
    hit(key) {
      if (db.backend === "postgres") return atomically(key, true);
      return locked(key, async (tx) => {
        const now = clock();
        const list = await hits(tx, key, now);
        if (list.length >= limit) return decide(list, now, false);
        await tx.run(
          sql`INSERT INTO rate_hits (limiter, key, at) VALUES (${name}, ${key}, ${now})`,
        );
        list.push(now);
        return decide(list, now, true);
      });
    },
    peek(key) {
      if (db.backend === "postgres") return atomically(key, false);
      return locked(key, async (tx) => {
        const now = clock();
        const list = await hits(tx, key, now);
        return decide(list, now, list.length < limit);
      });
    },
    async reset(key) {
      await db.run(sql`DELETE FROM rate_hits WHERE limiter = ${name} AND key = ${key}`);
    },
  };
}
