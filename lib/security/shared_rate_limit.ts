// The rate limiter replicas share: the same sliding window as lib/security/rate_limit.ts, but
// its hits are rows in rate_hits, so a client spreading its attempts over several console
// processes behind a load balancer meets one limit. Invariants: a key's check-and-record is
// one transaction under an advisory lock on (limiter, key), so two replicas cannot both admit
// the last allowed hit; old hits are deleted as they leave the window.
import { type Db, transaction } from "../storage/db.ts";
import {
  type RateDecision,
  rateDecision,
  type RateLimiter,
  type RateLimiterOptions,
} from "./rate_limit.ts";

export function createSharedRateLimiter(
  db: Db,
  name: string,
  opts: RateLimiterOptions,
): RateLimiter {
  const { limit, windowSeconds, clock } = opts;

  const hits = (key: string, now: number): number[] => {
    db.prepare("DELETE FROM rate_hits WHERE limiter = ? AND key = ? AND at <= ?").run(
      name,
      key,
      now - windowSeconds,
    );
    return (db.prepare("SELECT at FROM rate_hits WHERE limiter = ? AND key = ? ORDER BY at")
      .all(name, key) as Array<{ at: number }>).map((r) => r.at);
  };

  const decide = (list: number[], now: number, ok: boolean): RateDecision =>
    rateDecision(list, now, ok, opts);

  const locked = <T>(key: string, fn: () => T): T =>
    transaction(db, () => {
      if (db.backend === "postgres") {
        db.prepare("SELECT pg_advisory_xact_lock(hashtext(CAST(? AS TEXT)))").get(`${name}:${key}`);
      }
      return fn();
    });

  return {
    limit,
    windowSeconds,
    hit(key) {
      return locked(key, () => {
        const now = clock();
        const list = hits(key, now);
        if (list.length >= limit) return decide(list, now, false);
        db.prepare("INSERT INTO rate_hits (limiter, key, at) VALUES (?, ?, ?)").run(name, key, now);
        list.push(now);
        return decide(list, now, true);
      });
    },
    peek(key) {
      return locked(key, () => {
        const now = clock();
        const list = hits(key, now);
        return decide(list, now, list.length < limit);
      });
    },
    reset(key) {
      db.prepare("DELETE FROM rate_hits WHERE limiter = ? AND key = ?").run(name, key);
    },
  };
}
