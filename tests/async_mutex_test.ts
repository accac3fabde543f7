import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { AsyncMutex } from "../lib/async_mutex.ts";

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("AsyncMutex.runExclusive() never lets two critical sections overlap", async () => {
  const mutex = new AsyncMutex();
  let inside = 0;
  let maxInside = 0;
  await Promise.all(Array.from({ length: 20 }, (_, i) =>
    mutex.runExclusive(async () => {
      inside++;
      maxInside = Math.max(maxInside, inside);
      for (let k = 0; k < i % 3; k++) await tick();
      inside--;
    })));
  strictEqual(maxInside, 1);
  strictEqual(mutex.locked, false);
});

Deno.test("AsyncMutex.acquire() hands the lock to waiters in arrival order", async () => {
  const mutex = new AsyncMutex();
  const order: number[] = [];
  const first = await mutex.acquire();
  const waiters = [1, 2, 3].map((n) =>
    mutex.acquire().then((release) => (order.push(n), release()))
  );
  strictEqual(mutex.waiting, 3);
  first();
  await Promise.all(waiters);
  deepStrictEqual(order, [1, 2, 3]);
  strictEqual(mutex.locked, false);
});

Deno.test("AsyncMutex release is idempotent: a second call cannot free another owner's lock", async () => {
  const mutex = new AsyncMutex();
  const release = await mutex.acquire();
  const next = mutex.acquire();
  release();
  const releaseNext = await next;
  release(); // stale: must not unlock the new owner
  strictEqual(mutex.locked, true);
  releaseNext();
  strictEqual(mutex.locked, false);
});

Deno.test("AsyncMutex.runExclusive() releases the lock when the section throws", async () => {
  const mutex = new AsyncMutex();
  await rejects(mutex.runExclusive(() => Promise.reject(new Error("boom"))), /boom/);
  strictEqual(mutex.locked, false);
  strictEqual(await mutex.runExclusive(() => 42), 42);
});
