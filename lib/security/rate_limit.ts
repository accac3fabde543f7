// Sliding-window rate limits keyed by client (login failures, chat starts, uploads).
// Invariants: state belongs to one limiter object (one per app, never process-global); time
// comes from the injected clock; memory is bounded (old hits are pruned, and past `maxKeys`
// clients the least recently seen one is forgotten).
import type { Clock } from "../ids.ts";

export interface RateLimiterOptions {
  /** Events allowed per window per key. */
  limit: number;
  windowSeconds: number;
  clock: Clock;
  /** Distinct keys remembered at once (default 10,000). */
  maxKeys?: number;
}

export interface RateDecision {
  ok: boolean;
  /** Whole seconds until one more event would be allowed (0 when `ok`). */
  retryAfterSeconds: number;
  /** Events counted in the current window, including this one when it was recorded. */
  count: number;
}

/**
 * A limiter's verbs are async because the replicas' one counts in the database
 * (lib/security/shared_rate_limit.ts); the in-memory one answers at once.
 */
export interface RateLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  /** Record one event for `key` unless the key is already at its limit. */
  hit(key: string): Promise<RateDecision>;
  /** The current state for `key` without recording anything. */
  peek(key: string): Promise<RateDecision>;
  /** Forget `key` (e.g. after a successful login). */
  reset(key: string): Promise<void>;
}

/**
 * The decision for a key whose hits in the window are `list` (oldest first): when refused, how
 * long until the oldest hit that counts leaves the window. Shared with the replicas' limiter
 * (lib/security/shared_rate_limit.ts).
 */
export function rateDecision(
  list: number[],
  now: number,
  ok: boolean,
  window: { limit: number; windowSeconds: number },
): RateDecision {
  if (ok || list.length === 0) return { ok, retryAfterSeconds: 0, count: list.length };
  const oldest = list[list.length - window.limit] ?? list[0];
  return {
    ok,
    retryAfterSeconds: Math.max(1, Math.ceil(oldest + window.windowSeconds - now)),
    count: list.length,
  };
}

/** Create a limiter allowing `limit` events per `windowSeconds` per key. */
export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const { limit, windowSeconds, clock } = opts;
  const maxKeys = opts.maxKeys ?? 10_000;
  // Map iteration order is insertion order: re-inserting on use keeps it LRU.
  const hits = new Map<string, number[]>();

  const current = (key: string, now: number): number[] => {
    const list = hits.get(key);
    if (!list) return [];
    const fresh = list.filter((t) => t > now - windowSeconds);
    hits.delete(key);
    if (fresh.length > 0) hits.set(key, fresh);
    return fresh;
  };

  const decision = (list: number[], now: number, ok: boolean): RateDecision =>
    rateDecision(list, now, ok, opts);

  return {
    limit,
    windowSeconds,
    // No await inside: check and record happen in one turn of the event loop.
    hit(key) {
      const now = clock();
      const list = current(key, now);
      if (list.length >= limit) return Promise.resolve(decision(list, now, false));
      list.push(now);
      hits.delete(key);
      hits.set(key, list);
      while (hits.size > maxKeys) hits.delete(hits.keys().next().value as string);
      return Promise.resolve(decision(list, now, true));
    },
    peek(key) {
      const now = clock();
      const list = current(key, now);
      return Promise.resolve(decision(list, now, list.length < limit));
    },
    reset(key) {
      hits.delete(key);
      return Promise.resolve();
    },
  };
}
