import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type ProbeIo, type ProbeResult, type ProbeTarget } from "../lib/models/model_probes.ts";
import { ProbeRound, ProbeSchedule, type ScheduleOptions } from "../lib/models/probe_schedule.ts";
import { ManualTimers } from "../lib/timers.ts";

const CAP = 5000;

function schedule(timers: ManualTimers, over: Partial<ScheduleOptions> = {}) {
  let stopped = false;
  const s = new ProbeSchedule({
    timers,
    deadline: timers.now() + 4000,
    capMs: CAP,
    attemptOnlyMs: 10,
    callerStopped: () => stopped,
    ...over,
  });
  return { s, stop: () => (stopped = true) };
}

const target = (id: string, url = `http://10.0.0.1/${id}/models`, auth?: string): ProbeTarget => ({
  providerId: id,
  kind: "openai",
  url,
  headers: auth ? { authorization: auth } : {},
  allowPrivate: true,
  serial: true,
});

/**
 * Fake endpoints keyed by provider id: "dead" ones answer only when aborted, live ones answer
 * at once. Records, per start, the delay of the slice timer armed for it.
 */
function fakeEndpoints(timers: ManualTimers, dead: Set<string>) {
  const started: Array<{ id: string; at: number; slice: number }> = [];
  let notify: () => void = () => {};
  const run = (t: ProbeTarget, _io: ProbeIo, signal: AbortSignal): Promise<ProbeResult> => {
    started.push({ id: t.providerId, at: timers.now(), slice: timers.pending()[0] });
    notify();
    if (!dead.has(t.providerId)) {
      return Promise.resolve({
        status: "ok",
        models: [{ id: `${t.providerId}-model`, label: "m" }],
      });
    }
    return new Promise((resolve) => {
      signal.addEventListener("abort", () => resolve({ status: "aborted" }), { once: true });
    });
  };
  const waitStarts = async (n: number) => {
    while (started.length < n) await new Promise<void>((r) => notify = r);
  };
  return { run, started, waitStarts, admit: () => Promise.resolve(null) };
}

Deno.test("ProbeSchedule.slice() shares the remaining window fairly, with no floor", () => {
  const timers = new ManualTimers();
  const { s, stop } = schedule(timers);
  deepStrictEqual(s.slice(2), { ms: 4000 / 2.1, mode: "fair" });
  // A lone target is not halved by the headroom slot.
  deepStrictEqual(s.slice(1), { ms: 4000 / 1.1, mode: "fair" });
  // No lower bound: a long chain gets tiny slices instead of outspending the window.
  deepStrictEqual(s.slice(1000), { ms: 4000 / 1000.1, mode: "fair" });
  timers.advance(4000);
  deepStrictEqual(s.slice(3), { ms: 10, mode: "attempt-only" });
  stop();
  deepStrictEqual(s.slice(3), { ms: CAP, mode: "out-of-band" });
  const wide = schedule(new ManualTimers(), { deadline: 60_000 }).s;
  deepStrictEqual(wide.slice(1), { ms: CAP, mode: "fair" });
  const unbounded = schedule(new ManualTimers(), { deadline: null }).s;
  deepStrictEqual(unbounded.slice(5), { ms: CAP, mode: "unbounded" });
});

Deno.test("ProbeRound.run() reaches a live endpoint in-band behind a dead one", async () => {
  const timers = new ManualTimers();
  const fake = fakeEndpoints(timers, new Set(["dead"]));
  const round = new ProbeRound({ io: {}, timers, signal: new AbortController().signal, ...fake });
  const done = round.run([target("dead"), target("live")], schedule(timers).s);
  await fake.waitStarts(1);
  timers.advance(fake.started[0].slice);
  await done;
  strictEqual(round.outcomes.get("live")?.status, "ok");
  deepStrictEqual(round.outcomes.get("dead"), { status: "truncated" });
  ok(fake.started[1].at < 4000, "the live probe started inside the window");
  deepStrictEqual(round.truncated(), ["dead"]);
});

Deno.test("ProbeRound.run() keeps a long chain of dead endpoints inside the caller's window", async () => {
  const timers = new ManualTimers();
  const ids = Array.from({ length: 40 }, (_, i) => `dead${i}`);
  const fake = fakeEndpoints(timers, new Set(ids));
  const round = new ProbeRound({ io: {}, timers, signal: new AbortController().signal, ...fake });
  const done = round.run([...ids.map((id) => target(id)), target("live")], schedule(timers).s);
  for (let i = 1; i <= ids.length; i++) {
    await fake.waitStarts(i);
    timers.advance(fake.started[i - 1].slice);
  }
  await done;
  const live = fake.started.at(-1)!;
  strictEqual(live.id, "live");
  ok(live.at < 4000, `live probe started at ${live.at} ms, inside the 4000 ms window`);
  strictEqual(round.outcomes.get("live")?.status, "ok");
});

Deno.test("ProbeRound memo: one request per URL + credential, and duplicates reserve no slot", async () => {
  const timers = new ManualTimers();
  const fake = fakeEndpoints(timers, new Set());
  const round = new ProbeRound({ io: {}, timers, signal: new AbortController().signal, ...fake });
  const shared = "http://10.0.0.9:1234/v1/models";
  await round.run([
    target("custom", shared),
    target("custom:a", shared),
    target("custom:b", shared, "Bearer other-key"),
    target("lmstudio", shared),
    target("custom:q", shared + "?x=1"),
  ], schedule(timers).s);
  deepStrictEqual(fake.started.map((s) => s.id), ["custom", "custom:b", "custom:q"]);
  // Three distinct requests were ahead when the first started: 4000 / (3 + 0.1).
  strictEqual(fake.started[0].slice, 4000 / 3.1);
  deepStrictEqual([...round.requests.values()], [1, 1, 1]);
  for (const id of ["custom", "custom:a", "lmstudio"]) {
    strictEqual(round.outcomes.get(id)?.status, "ok");
  }
});

Deno.test("ProbeRound memo is consulted only after the SSRF check", async () => {
  const timers = new ManualTimers();
  const fake = fakeEndpoints(timers, new Set());
  const round = new ProbeRound({
    io: {},
    timers,
    signal: new AbortController().signal,
    run: fake.run,
  });
  const url = "http://127.0.0.1:9/v1/models";
  await round.run(
    [target("custom", url), { ...target("openai", url), allowPrivate: false }],
    schedule(timers).s,
  );
  strictEqual(round.outcomes.get("custom")?.status, "ok");
  const refused = round.outcomes.get("openai");
  ok(refused?.status === "error" && /loopback/.test(refused.error) && !refused.unreachable);
});

Deno.test("ProbeRound.retryTruncated() retries once at the full cap and keeps successes", async () => {
  const timers = new ManualTimers();
  const dead = new Set(["slow"]);
  const fake = fakeEndpoints(timers, dead);
  const round = new ProbeRound({ io: {}, timers, signal: new AbortController().signal, ...fake });
  const { s, stop } = schedule(timers);
  const done = round.run([target("slow"), target("live")], s);
  await fake.waitStarts(1);
  timers.advance(fake.started[0].slice);
  await done;
  stop(); // the caller returned: out-of-band from here on
  dead.delete("slow"); // it would answer now, given the time
  await round.retryTruncated(s);
  deepStrictEqual(fake.started.map((x) => x.id), ["slow", "live", "slow"]);
  strictEqual(fake.started[2].slice, CAP);
  strictEqual(round.outcomes.get("slow")?.status, "ok");
  deepStrictEqual(round.truncated(), []);
});

Deno.test("ProbeRound: a probe reached after the window is spent, caller still waiting, gets the attempt-only timeout", async () => {
  const timers = new ManualTimers();
  const fake = fakeEndpoints(timers, new Set(["late"]));
  const round = new ProbeRound({ io: {}, timers, signal: new AbortController().signal, ...fake });
  const { s } = schedule(timers);
  timers.advance(4500);
  const done = round.run([target("late")], s);
  await fake.waitStarts(1);
  strictEqual(fake.started[0].slice, 10);
  timers.advance(10);
  await done;
  deepStrictEqual(round.outcomes.get("late"), { status: "truncated" });
});

Deno.test("ProbeRound: a timeout at the full cap is unreachable, not truncated", async () => {
  const timers = new ManualTimers();
  const fake = fakeEndpoints(timers, new Set(["dead"]));
  const round = new ProbeRound({ io: {}, timers, signal: new AbortController().signal, ...fake });
  const done = round.run([target("dead")], schedule(timers, { deadline: null }).s);
  await fake.waitStarts(1);
  strictEqual(fake.started[0].slice, CAP);
  timers.advance(CAP);
  await done;
  deepStrictEqual(round.outcomes.get("dead"), {
    status: "error",
    error: "No answer within 5 s",
    unreachable: true,
  });
});
