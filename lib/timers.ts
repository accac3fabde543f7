// Time as a dependency: `now()` in epoch milliseconds plus one-shot timers. `systemTimers`
// wraps Date.now/setTimeout; `ManualTimers` is virtual time that moves only when a test says so,
// firing due timers in (due time, creation order), so budget and timeout logic is deterministic.

/** An opaque handle returned by `setTimeout`. */
export type TimerHandle = unknown;

/** The clock and timers a time-bounded subsystem takes as a parameter. */
export interface Timers {
  /** Milliseconds (epoch-based for the system clock; any origin for virtual clocks). */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock. */
export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (h) => clearTimeout(h as number),
};

/**
 * Virtual time for tests: nothing fires until `advance()` moves the clock past a timer's due
 * time. A single `advance()` that jumps over several timers fires them all synchronously, in
 * order, before any promise continuation runs — the model of a slow, overloaded event loop.
 */
export class ManualTimers implements Timers {
  #now: number;
  #seq = 0;
  #pending = new Map<number, { due: number; fn: () => void }>();

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.#seq;
    this.#pending.set(id, { due: this.#now + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#pending.delete(handle as number);
  }

  /** Move the clock forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.#now + ms;
    while (true) {
      let next: [number, { due: number; fn: () => void }] | undefined;
      for (const entry of this.#pending) {
        if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
      }
      if (!next) break;
      this.#pending.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].due);
      next[1].fn();
    }
    this.#now = target;
  }

  /** Delays (ms from now) of the armed timers, soonest first: what a test expects to be waiting. */
  pending(): number[] {
    return [...this.#pending.values()].map((t) => t.due - this.#now).sort((a, b) => a - b);
  }
}

/**
 * Resolve after `ms` on `timers`, or as soon as `signal` aborts (resolving, not rejecting:
 * callers check what happened). The timer is always cleared, so nothing outlives the wait.
 */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      timers.clearTimeout(handle);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const handle = timers.setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
