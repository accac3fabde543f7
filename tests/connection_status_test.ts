// The page's reach of its server (lib/browser/connection_status.ts) without a DOM: a going-away is
// believed at once, a broken stream only once the server fails to answer; the server is asked
// again on a back-off until it answers; waiters resume then; one probe loop at a time.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createConnection, type Reach, RECHECK_MS } from "../lib/browser/connection_status.ts";

/** A connection whose probes answer from `answers` (then true), with sleeps recorded. */
function fixture(answers: boolean[]) {
  const changes: Reach[] = [];
  const sleeps: number[] = [];
  let probes = 0;
  let settle!: () => void;
  let settled = new Promise<void>((r) => (settle = r));
  const c = createConnection({
    probe: () => (probes++, Promise.resolve(answers.shift() ?? true)),
    sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
    onChange: (reach) => {
      changes.push(reach);
      if (reach === "online") settle();
    },
  });
  return {
    c,
    changes,
    sleeps,
    probes: () => probes,
    /** Resolves when the connection next comes back online. */
    back: async () => {
      await settled;
      settled = new Promise<void>((r) => (settle = r));
    },
  };
}

Deno.test("createConnection() takes a going-away as offline at once and waits for the return", async () => {
  const f = fixture([false, false, false, false, false]);
  let resumed = false;
  f.c.goingAway();
  strictEqual(f.c.reach, "offline", "the server said so: no probe needed");
  const waiting = f.c.whenOnline().then(() => (resumed = true));
  strictEqual(resumed, false);
  await f.back();
  await waiting;
  strictEqual(f.c.reach, "online");
  deepStrictEqual(f.changes, ["offline", "online"]);
  // A pause before the first probe (the server may still be draining), then the back-off.
  deepStrictEqual(f.sleeps, [RECHECK_MS[0], 1000, 2000, 3000, 5000, 5000]);
  strictEqual(f.probes(), 6);
});

Deno.test("createConnection() believes a broken stream only when the server does not answer", async (t) => {
  await t.step("a server that answers: no sign", async () => {
    const f = fixture([true]);
    f.c.suspect();
    // The probe's answer is taken a microtask after it is asked.
    while (f.probes() === 0) await Promise.resolve();
    await Promise.resolve();
    deepStrictEqual(f.changes, [], "never offline");
    strictEqual(f.c.reach, "online");
  });
  await t.step("a server that is gone: offline, then back", async () => {
    const f = fixture([false, false]);
    f.c.suspect();
    await f.back();
    deepStrictEqual(f.changes, ["offline", "online"]);
    deepStrictEqual(f.sleeps, [1000, 2000]);
  });
});

Deno.test("createConnection() runs one probe loop however many streams break", async () => {
  const f = fixture([false, false]);
  f.c.suspect();
  f.c.suspect();
  f.c.goingAway();
  await f.back();
  strictEqual(f.probes(), 3, "three probes: two refused, one answered");
});

Deno.test("whenOnline() ends early when its signal aborts", async () => {
  const never = createConnection({
    probe: () => new Promise<boolean>(() => {}),
    sleep: () => Promise.resolve(),
    onChange: () => {},
  });
  never.goingAway();
  const ac = new AbortController();
  const waiting = never.whenOnline(ac.signal);
  ac.abort();
  await waiting;
  strictEqual(never.reach, "offline", "a page that stops waiting does not make the server back");
});
