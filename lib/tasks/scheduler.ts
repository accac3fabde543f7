// The scheduler of one app: one timer armed for the earliest due slot of all enabled jobs; when
// it fires, each due job runs (through the TaskRunner: an ordinary agent run) or records why it
// did not. Invariants: a slot runs at most once (the run row is claimed before anything starts;
// lib/tasks/jobs.ts claimSlot); a job whose previous run is still going skips and records the
// skip; at start, a slot missed while the server was down runs once if it is less than one
// period late, else it is recorded as missed; time comes from `Timers`, so tests use a fake clock.
// Every database call is awaited and none holds a transaction open across a timer; a tick the
// database fails (DatabaseUnavailableError) is logged and tried again after a short pause.
import type { Db } from "../storage/db.ts";
import type { Logger } from "../log.ts";
import type { TimerHandle, Timers } from "../timers.ts";
import { NotFoundError } from "../errors.ts";
import {
  attachRun,
  claimSlot,
  finishRun,
  getJob,
  getRun,
  interruptStaleRuns,
  type JobRow,
  listJobs,
  runAtSlot,
  runningRun,
  type RunRow,
  type RunTrigger,
  scheduleOf,
} from "./jobs.ts";
import { latestDueSlot, nextSlot, periodAt } from "./schedule.ts";

/** How a run ended, as the scheduler records it in history. */
export interface RunOutcome {
  status: "completed" | "error" | "interrupted";
  reason?: string | null;
  input_tokens?: number;
  output_tokens?: number;
  cost?: number | null;
  output_head?: string | null;
}

/** Starts the agent run of a job's slot (wired in main.ts to sessions + RunManager). */
export interface TaskRunner {
  start(job: JobRow, run: RunRow): Promise<{
    sessionId: string;
    streamId: string;
    /** Settles when the run has ended. */
    done: Promise<RunOutcome>;
  }>;
}

export interface SchedulerDeps {
  db: Db;
  timers: Timers;
  runner: TaskRunner;
  log: Logger;
}

/** The longest single wait: re-check at least this often (clock jumps, suspended hosts). */
const MAX_WAIT_MS = 60 * 60 * 1000;
/** After a tick the database failed: try again this much later, not in a tight loop. */
const RETRY_AFTER_ERROR_MS = 30 * 1000;

export class TaskScheduler {
  #timer: TimerHandle | null = null;
  #stopped = true;
  /** Runs a stopped server left `running` have been closed (by the first tick that could). */
  #staleRunsClosed = false;
  /** Bumped by every arming and by stop: only the latest arming may set the timer. */
  #armings = 0;
  /** The scheduler's own work under way: ticks, armings, claims and starting runs. */
  #work = new Set<Promise<unknown>>();
  /** Runs started by this process and not yet recorded as ended. */
  #inFlight = new Set<Promise<unknown>>();

  constructor(private deps: SchedulerDeps) {}

  #nowSec(): number {
    return this.deps.timers.now() / 1000;
  }

  /**
   * Start: close runs a stopped server left open, catch up what was missed, arm the timer.
   * Settles when that first tick is done; it never rejects (a database failure is logged and
   * the tick tried again later).
   */
  start(): Promise<void> {
    this.#stopped = false;
    return this.#track(this.#work, this.#tick("catch_up"));
  }

  /** Stop firing (runs already started go on; the app's RunManager owns them). */
  stop(): void {
    this.#stopped = true;
    this.#armings++;
    this.#clearTimer();
  }

  /** Re-arm after a job was created, edited, paused, resumed or deleted. Never rejects. */
  rearm(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return this.#track(this.#work, this.#arm());
  }

  /**
   * Wait until the scheduler's own work is done — ticks, armings, claims, runs being started —
   * but not for the runs themselves to end (tests on a fake clock, after moving it).
   */
  async idle(): Promise<void> {
    while (this.#work.size) await Promise.allSettled([...this.#work]);
  }

  /** Wait for the runs this process started to be recorded (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#work.size || this.#inFlight.size) {
      await Promise.allSettled([...this.#work, ...this.#inFlight]);
    }
  }

  /** The next time (epoch ms) `job` will run, or null (paused, or a one-off that ran). */
  nextRunAt(job: JobRow): number | null {
    if (!job.enabled) return null;
    const s = scheduleOf(job);
    const after = job.last_slot === null ? job.anchor * 1000 : job.last_slot * 1000;
    return nextSlot(s, after, job.anchor * 1000);
  }

  /**
   * "Run now": a manual run in its own slot (now), skipped if the previous run still goes.
   * Settles with the run's row once it has started (or been recorded as skipped or failed).
   */
  runNow(jobId: string): Promise<RunRow> {
    return this.#track(this.#work, this.#runNow(jobId));
  }

  async #runNow(jobId: string): Promise<RunRow> {
    const job = await getJob(this.deps.db, jobId);
    const { run, won } = await this.#claim(job, this.deps.timers.now(), "manual");
    return won ? await this.#launch(job, run) : run;
  }

  /** Keep `work` in `set` until it settles; returns it. */
  #track<T>(set: Set<Promise<unknown>>, work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => set.delete(tracked));
    set.add(tracked);
    return tracked;
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.deps.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Arm the timer for the earliest due slot (at least `minWaitMs` away). Never rejects. */
  async #arm(minWaitMs = 0): Promise<void> {
    const arming = ++this.#armings;
    let wait: number;
    try {
      const jobs = await listJobs(this.deps.db);
      const now = this.deps.timers.now();
      let earliest = now + MAX_WAIT_MS;
      for (const job of jobs) {
        const at = this.nextRunAt(job);
        if (at !== null && at < earliest) earliest = at;
      }
      wait = Math.min(Math.max(minWaitMs, earliest - now), MAX_WAIT_MS);
    } catch (err) {
      this.deps.log.error("Scheduled tasks could not be read; trying again shortly", {
        error: err instanceof Error ? err.message : String(err),
      });
      wait = RETRY_AFTER_ERROR_MS;
    }
    // A later arming (a rearm while this one read the jobs) or a stop wins: one timer at most.
    if (arming !== this.#armings || this.#stopped) return;
    this.#clearTimer();
    this.#timer = this.deps.timers.setTimeout(() => {
      this.#timer = null;
      void this.#track(this.#work, this.#tick("schedule"));
    }, wait);
  }

  /** Fire or record every due job, then arm the timer again. Never rejects. */
  async #tick(trigger: RunTrigger): Promise<void> {
    if (this.#stopped) return;
    let failed = false;
    try {
      if (!this.#staleRunsClosed) {
        const closed = await interruptStaleRuns(this.deps.db, this.#nowSec());
        this.#staleRunsClosed = true;
        if (closed > 0) {
          this.deps.log.warn(`${closed} scheduled run(s) were interrupted by a restart`);
        }
      }
      const now = this.deps.timers.now();
      for (const job of await listJobs(this.deps.db)) {
        if (this.#stopped) return;
        if (!job.enabled) continue;
        try {
          await this.#due(job, now, trigger);
        } catch (err) {
          failed = true;
          this.deps.log.error(`Scheduled task ${job.id} could not be started`, {
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
    } catch (err) {
      failed = true;
      this.deps.log.error("Scheduled tasks could not be checked; trying again shortly", {
        error: err instanceof Error ? err.message : String(err),
      });
    }
    // A slot the database would not let us claim is still due: without the pause the timer
    // would fire again at once, over and over, while the database is down.
    await this.#arm(failed ? RETRY_AFTER_ERROR_MS : 0);
  }

  /** Claim `job`'s due slot, if any, and start its run without waiting for it. */
  async #due(job: JobRow, now: number, trigger: RunTrigger): Promise<void> {
    const s = scheduleOf(job);
    const anchor = job.anchor * 1000;
    const since = job.last_slot === null ? anchor : job.last_slot * 1000;
    // The first slot not yet run: on time it fires; less than one period late (a short outage)
    // it fires once; later than that, it and every slot after it up to now are recorded missed.
    const first = nextSlot(s, since, anchor);
    if (first === null || first > now) return;
    if (now - first < periodAt(s, first, anchor)) {
      const { run, won } = await this.#claim(job, first, trigger);
      // The run goes on its own (an agent run lasts minutes); the tick only waits for the claim.
      if (won) void this.#track(this.#work, this.#launch(job, run));
      return;
    }
    const newest = latestDueSlot(s, since, now, anchor) ?? first;
    let count = 1;
    for (let t = first; count < 10_000;) {
      const n = nextSlot(s, t, anchor);
      if (n === null || n > newest) break;
      t = n;
      count++;
    }
    const from = new Date(first).toISOString();
    await claimSlot(
      this.deps.db,
      job.id,
      newest / 1000,
      trigger,
      "missed",
      now / 1000,
      `missed ${count} run(s) from ${from}: more than one period late when the server could run them`,
    );
  }

  /**
   * Claim the slot at `slotMs` for a run. `won` is true only when this call inserted the
   * running row; otherwise `run` is the row that holds the slot (a skip, or an earlier claim,
   * perhaps by another replica) and nothing may start.
   */
  async #claim(
    job: JobRow,
    slotMs: number,
    trigger: RunTrigger,
  ): Promise<{ run: RunRow; won: boolean }> {
    const { db } = this.deps;
    const now = this.#nowSec();
    const slot = slotMs / 1000;
    if ((await runningRun(db, job.id)) !== null) {
      const skipped = await claimSlot(
        db,
        job.id,
        slot,
        trigger,
        "skipped",
        now,
        "skipped: the previous run was still going",
      );
      return { run: skipped ?? await this.#holderOf(job.id, slot), won: false };
    }
    const run = await claimSlot(db, job.id, slot, trigger, "running", now);
    if (run !== null) return { run, won: true };
    return { run: await this.#holderOf(job.id, slot), won: false }; // claimed before: never twice
  }

  async #holderOf(jobId: string, slot: number): Promise<RunRow> {
    const run = await runAtSlot(this.deps.db, jobId, slot);
    // The slot's row was there a moment ago: gone only if the job was deleted meanwhile.
    if (run === null) throw new NotFoundError(`No scheduled task "${jobId}"`);
    return run;
  }

  /**
   * Start the agent run of a claimed `run` and record its outcome when it ends (tracked in
   * #inFlight). Settles with the run's row once started, or once recorded as failed to start.
   */
  async #launch(job: JobRow, run: RunRow): Promise<RunRow> {
    const { db, log } = this.deps;
    let started: Awaited<ReturnType<TaskRunner["start"]>>;
    try {
      started = await this.deps.runner.start(job, run);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      log.warn(`Scheduled task ${job.id} failed to start`, { error: reason });
      await this.#record(run, { status: "error", reason });
      return await this.#reread(run);
    }
    void this.#track(this.#inFlight, this.#recordWhenDone(run, started.done));
    try {
      await attachRun(db, run.id, started.sessionId, started.streamId);
    } catch (err) {
      // The run goes on; only its history row lacks the link to its session.
      log.error(`Scheduled run ${run.id} could not be linked to its session`, {
        error: err instanceof Error ? err.message : String(err),
      });
      return { ...run, session_id: started.sessionId, stream_id: started.streamId };
    }
    return await this.#reread(run);
  }

  /** `run` as stored now (a quick run may have ended already); as known, if it cannot be read. */
  async #reread(run: RunRow): Promise<RunRow> {
    try {
      return await getRun(this.deps.db, run.job_id, run.id) ?? run;
    } catch {
      return run; // #launch never rejects: a tick does not wait for it
    }
  }

  async #recordWhenDone(run: RunRow, done: Promise<RunOutcome>): Promise<void> {
    const outcome = await done.catch((err): RunOutcome => ({
      status: "error",
      reason: String(err),
    }));
    await this.#record(run, outcome);
  }

  /** Write `run`'s outcome. Never rejects: a failure is logged (the row stays `running`). */
  async #record(run: RunRow, outcome: RunOutcome): Promise<void> {
    try {
      await finishRun(this.deps.db, run.id, { ...outcome, now: this.#nowSec() });
    } catch (err) {
      this.deps.log.error(`The outcome of scheduled run ${run.id} could not be recorded`, {
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
}
