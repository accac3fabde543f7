// A FIFO mutual-exclusion lock for async code: critical sections that span `await`s (file
// renames, a foreground wait) run one at a time. Invariants: ownership passes straight to the
// oldest waiter on release (no barging), and releasing twice is a no-op, never a double unlock.

/** Call to give the lock up. Idempotent. */
export type Release = () => void;

export class AsyncMutex {
  #locked = false;
  #waiters: Array<(release: Release) => void> = [];

  /** Optional name, shown in errors and debugging output. */
  constructor(readonly name = "mutex") {}

  /** True while some task owns the lock. */
  get locked(): boolean {
    return this.#locked;
  }

  /** How many tasks are queued behind the current owner. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Wait for the lock; resolves with the function that releases it. */
  acquire(): Promise<Release> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve(this.#makeRelease());
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Run `fn` holding the lock; the lock is released however `fn` ends. */
  async runExclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  #makeRelease(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) next(this.#makeRelease());
      else this.#locked = false;
    };
  }
}
