// The scheduler on a fake clock: slots fire once each, DST days, a restart at a slot boundary, a
// missed run, a skip while the previous run goes on, and two schedulers racing for one slot.
// The runner here records starts instead of running the agent; tests/tasks_api_test.ts drives
// real agent runs through the engine and the fake provider.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { type Db, openDatabaseAt } from "../../lib/storage/db.ts";
import { DatabaseUnavailableError } from "../../lib/errors.ts";
import { createLogger } from "../../lib/log.ts";
import { ManualTimers } from "../../lib/timers.ts";
import {
  claimSlot,
  createJob,
  getJob,
  type JobRow,
  runHistory,
  type RunRow,
  updateJob,
} from "../../lib/tasks/jobs.ts";
import { type RunOutcome, TaskScheduler } from "../../lib/tasks/scheduler.ts";
import { parseSchedule } from "../../lib/tasks/schedule.ts";

const NY = "America/New_York";

interface Harness {
  db: ReturnType<typeof openDatabaseAt>;
  timers: ManualTimers;
  starts: { job: string; slot: string; trigger: string }[];
  finish: Map<number, (o: RunOutcome) => void>;
  /** What the schedulers logged, one line each. */
  logs: string[];
  /** A scheduler on `db` (the harness's own database unless given). */
  scheduler(db?: Db): TaskScheduler;
}

async function harness(startIso: string, path?: string): Promise<Harness> {
  const dir = path ?? await Deno.makeTempDir({ prefix: "hermes-sched-" });
  const db = openDatabaseAt(join(dir, "hermes.db"));
  const timers = new ManualTimers(Date.parse(startIso));
  const starts: Harness["starts"] = [];
  const finish = new Map<number, (o: RunOutcome) => void>();
  const logs: string[] = [];
  const log = createLogger({ write: (line) => logs.push(line) });
  return {
    db,
    timers,
    starts,
    finish,
    logs,
    scheduler: (on: Db = db) =>
      new TaskScheduler({
        db: on,
        timers,
        log,
        runner: {
          start(job: JobRow, run: RunRow) {
            starts.push({
              job: job.id,
              slot: new Date(run.slot * 1000).toISOString(),
              trigger: run.trigger,
            });
            let resolve!: (o: RunOutcome) => void;
            const done = new Promise<RunOutcome>((r) => (resolve = r));
            finish.set(run.id, resolve);
            return Promise.resolve({ sessionId: "s" + run.id, streamId: "st" + run.id, done });
          },
        },
      }),
  };
}

const MIN = 60_000;
const HOUR = 60 * MIN;

/**
 * Let the schedulers' work after a clock move finish: their ticks, claims and the runner's
 * start (async queries: on PostgreSQL they take real round trips, so a timer turn is not enough).
 */
const flush = async (...schedulers: TaskScheduler[]) => {
  await Promise.all(schedulers.map((s) => s.idle()));
};

/** Finish every run started so far, as an agent run that completed. */
function completeAll(h: Harness): void {
  for (const [id, resolve] of h.finish) {
    resolve({ status: "completed" });
    h.finish.delete(id);
  }
}

Deno.test("parseSchedule() reads cron, intervals and one-off times in the user's zone", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  deepStrictEqual(parseSchedule("every 15 minutes", NY, now).expr, String(15 * MIN));
  strictEqual(parseSchedule("every 2h", NY, now).display, "every 2 hours");
  strictEqual(parseSchedule("0 9 * * 1-5", NY, now).kind, "cron");
  // 09:00 in New York on 2026-03-01 is 14:00 UTC (EST, UTC-5).
  strictEqual(
    parseSchedule("2026-03-01 09:00", NY, now).expr,
    String(Date.parse("2026-03-01T14:00:00Z")),
  );
  strictEqual(parseSchedule("in 30m", NY, now).expr, String(now + 30 * MIN));
  for (const bad of ["", "every 10 seconds", "tomorrow-ish", "61 * * * *"]) {
    let threw = false;
    try {
      parseSchedule(bad, NY, now);
    } catch (err) {
      threw = (err as Error).name === "ValidationError";
    }
    strictEqual(threw, true, bad);
  }
});

Deno.test("an interval job fires once per slot, on time, with nothing fired twice", async () => {
  const h = await harness("2026-05-01T10:00:00Z");
  const job = await createJob(
    h.db,
    { prompt: "tidy", schedule: "every 15 minutes" },
    h.timers.now() / 1000,
    NY,
  );
  const s = h.scheduler();
  await s.start();
  for (let i = 0; i < 4; i++) {
    h.timers.advance(15 * MIN);
    await flush(s);
    completeAll(h);
    await s.settled();
  }
  deepStrictEqual(h.starts.map((x) => x.slot), [
    "2026-05-01T10:15:00.000Z",
    "2026-05-01T10:30:00.000Z",
    "2026-05-01T10:45:00.000Z",
    "2026-05-01T11:00:00.000Z",
  ]);
  strictEqual((await runHistory(h.db, job.id, 0, 10)).every((r) => r.status === "completed"), true);
  s.stop();
});

Deno.test("DST days: a daily 02:30 job runs once on the spring-forward day, 01:30 once on fall-back", async () => {
  const spring = await harness("2026-03-07T00:00:00Z");
  await createJob(
    spring.db,
    { prompt: "a", schedule: "30 2 * * *" },
    spring.timers.now() / 1000,
    NY,
  );
  const s1 = spring.scheduler();
  await s1.start();
  for (let i = 0; i < 3 * 24; i++) {
    spring.timers.advance(HOUR);
    await flush(s1);
    completeAll(spring);
    await s1.settled(); // the outcome is recorded before the clock moves on
  }
  // 02:30 does not exist on 2026-03-08 in New York: it runs at 03:30 EDT, once.
  deepStrictEqual(spring.starts.map((x) => x.slot), [
    "2026-03-07T07:30:00.000Z",
    "2026-03-08T07:30:00.000Z",
    "2026-03-09T06:30:00.000Z",
  ]);
  s1.stop();

  const fall = await harness("2026-10-31T00:00:00Z");
  await createJob(fall.db, { prompt: "b", schedule: "30 1 * * *" }, fall.timers.now() / 1000, NY);
  const s2 = fall.scheduler();
  await s2.start();
  for (let i = 0; i < 3 * 24; i++) {
    fall.timers.advance(HOUR);
    await flush(s2);
    completeAll(fall);
    await s2.settled(); // the outcome is recorded before the clock moves on
  }
  // 01:30 happens twice on 2026-11-01 (EDT, then EST): the job runs once.
  deepStrictEqual(fall.starts.map((x) => x.slot), [
    "2026-10-31T05:30:00.000Z",
    "2026-11-01T05:30:00.000Z",
    "2026-11-02T06:30:00.000Z",
  ]);
  s2.stop();
});

Deno.test("a restart at a slot boundary never fires that slot twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hermes-sched-" });
  const a = await harness("2026-05-01T09:59:00Z", dir);
  const job = await createJob(
    a.db,
    { prompt: "x", schedule: "0 * * * *" },
    a.timers.now() / 1000,
    NY,
  );
  const sa = a.scheduler();
  await sa.start();
  a.timers.advance(MIN); // 10:00: A fires the slot, then dies mid-run
  await flush(sa);
  strictEqual(a.starts.length, 1);
  sa.stop();

  // B starts on the same database one second after the boundary.
  const b = await harness("2026-05-01T10:00:01Z", dir);
  const sb = b.scheduler();
  await sb.start();
  await flush(sb);
  strictEqual(b.starts.length, 0, "B must not fire the 10:00 slot again");
  const runs = await runHistory(b.db, job.id, 0, 10);
  deepStrictEqual(runs.map((r) => r.status), ["interrupted"]);
  b.timers.advance(HOUR);
  await flush(sb);
  deepStrictEqual(b.starts.map((x) => x.slot), ["2026-05-01T11:00:00.000Z"]);
  sb.stop();
});

Deno.test("a slot missed while down runs once if less than a period late, else is recorded as missed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hermes-sched-" });
  const a = await harness("2026-05-01T09:30:00Z", dir);
  const job = await createJob(
    a.db,
    { prompt: "x", schedule: "0 * * * *" },
    a.timers.now() / 1000,
    NY,
  );
  // Down from 09:30; back at 10:20: the 10:00 slot is 20 minutes late (< 1 h) → runs once.
  const b = await harness("2026-05-01T10:20:00Z", dir);
  const sb = b.scheduler();
  await sb.start();
  await flush(sb);
  deepStrictEqual(b.starts, [{
    job: job.id,
    slot: "2026-05-01T10:00:00.000Z",
    trigger: "catch_up",
  }]);
  for (const r of b.finish.values()) r({ status: "completed" });
  await sb.settled();
  sb.stop();
  // Down again until 13:30: the first slot not run (11:00) is 2.5 h late, more than a period:
  // 11:00, 12:00 and 13:00 are recorded as one missed entry and nothing runs; 14:00 runs.
  const c = await harness("2026-05-01T13:30:00Z", dir);
  const sc = c.scheduler();
  await sc.start();
  await flush(sc);
  strictEqual(c.starts.length, 0);
  const [missed] = await runHistory(c.db, job.id, 0, 1);
  strictEqual(missed.status, "missed");
  strictEqual(new Date(missed.slot * 1000).toISOString(), "2026-05-01T13:00:00.000Z");
  strictEqual(missed.reason?.startsWith("missed 3 run(s) from 2026-05-01T11:00:00.000Z"), true);
  c.timers.advance(30 * MIN);
  await flush(sc);
  deepStrictEqual(c.starts.map((x) => x.slot), ["2026-05-01T14:00:00.000Z"]);
  sc.stop();

  // An hourly job down for more than a period past its newest slot would be missed; a one-off
  // has no period, so it runs however late.
  const d = await harness("2026-05-01T08:00:00Z");
  const daily = await createJob(
    d.db,
    { prompt: "y", schedule: "every 1 hour" },
    d.timers.now() / 1000,
    NY,
  );
  await updateJob(
    d.db,
    daily.id,
    { schedule: "2026-05-01 02:00" },
    d.timers.now() / 1000 - 10 * HOUR / 1000,
  );
  const sd = d.scheduler();
  await sd.start();
  await flush(sd);
  strictEqual(d.starts.length, 1, "a one-off has no period: it runs however late");
  sd.stop();
});

Deno.test("a job whose previous run is still going skips the slot and records the skip", async () => {
  const h = await harness("2026-05-01T10:00:00Z");
  const job = await createJob(
    h.db,
    { prompt: "slow", schedule: "every 15 minutes" },
    h.timers.now() / 1000,
    NY,
  );
  const s = h.scheduler();
  await s.start();
  h.timers.advance(15 * MIN);
  await flush(s);
  h.timers.advance(15 * MIN); // the 10:15 run has not finished
  await flush(s);
  strictEqual(h.starts.length, 1);
  deepStrictEqual((await runHistory(h.db, job.id, 0, 10)).map((r) => [r.status, r.reason]), [
    ["skipped", "skipped: the previous run was still going"],
    ["running", null],
  ]);
  s.stop();
});

Deno.test("two schedulers on one database racing for a slot run it once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hermes-sched-" });
  const a = await harness("2026-05-01T09:59:00Z", dir);
  const b = await harness("2026-05-01T09:59:00Z", dir);
  await createJob(a.db, { prompt: "x", schedule: "0 * * * *" }, a.timers.now() / 1000, NY);
  const sa = a.scheduler();
  const sb = b.scheduler();
  await sa.start();
  await sb.start();
  a.timers.advance(MIN);
  b.timers.advance(MIN);
  await flush(sa, sb);
  strictEqual(a.starts.length + b.starts.length, 1);
  sa.stop();
  sb.stop();
});

Deno.test("claimSlot() lets exactly one of two claims of a slot in, racing from two connections", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hermes-sched-" });
  const a = await harness("2026-05-01T10:00:00Z", dir);
  const b = await harness("2026-05-01T10:00:00Z", dir);
  try {
    const now = a.timers.now() / 1000;
    const job = await createJob(a.db, { prompt: "x", schedule: "0 * * * *" }, now, NY);
    const slot = now + 3600;
    const claims = await Promise.all([
      claimSlot(a.db, job.id, slot, "schedule", "running", now),
      claimSlot(b.db, job.id, slot, "schedule", "running", now),
    ]);
    const won = claims.filter((c) => c !== null);
    strictEqual(won.length, 1, "one claim wins, the other gets no row");
    deepStrictEqual([won[0]!.job_id, won[0]!.slot, won[0]!.status], [job.id, slot, "running"]);
    strictEqual(await claimSlot(a.db, job.id, slot, "catch_up", "missed", now), null);
    deepStrictEqual((await runHistory(a.db, job.id, 0, 10)).map((r) => r.id), [won[0]!.id]);
    strictEqual((await getJob(b.db, job.id)).last_slot, slot, "the job moved past the slot");
    // A manual run has a slot of its own and leaves the schedule's position alone.
    await claimSlot(a.db, job.id, slot + 60, "manual", "running", now);
    strictEqual((await getJob(a.db, job.id)).last_slot, slot);
  } finally {
    a.db.close();
    b.db.close();
  }
});

/** `db`, except that its async queries fail while `down.is` is true (a database gone away). */
function flaky(db: Db, down: { is: boolean }): Db {
  const failing = new Set<PropertyKey>(["all", "get", "run", "transaction"]);
  return new Proxy(db, {
    get(target, prop) {
      if (down.is && failing.has(prop)) {
        return () => Promise.reject(new DatabaseUnavailableError("The database did not answer"));
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("a tick the database fails is logged and tried again after a pause, not in a loop", async () => {
  const h = await harness("2026-05-01T10:00:00Z");
  await createJob(h.db, { prompt: "x", schedule: "every 15 minutes" }, h.timers.now() / 1000, NY);
  const down = { is: false };
  const s = h.scheduler(flaky(h.db, down));
  await s.start();
  down.is = true;
  h.timers.advance(15 * MIN);
  await flush(s);
  strictEqual(h.starts.length, 0);
  deepStrictEqual(h.timers.pending(), [30_000], "one timer, armed for the retry");
  strictEqual(h.logs.some((l) => l.includes("could not be checked")), true, h.logs.join("\n"));
  // Back half a minute later: the 10:15 slot is late by less than a period, so it runs once.
  down.is = false;
  h.timers.advance(30_000);
  await flush(s);
  deepStrictEqual(h.starts.map((x) => x.slot), ["2026-05-01T10:15:00.000Z"]);
  s.stop();
});
