// The scheduler of one app: one timer armed for the earliest due slot of all enabled jobs; when
// it fires, each due job runs (through the TaskRunner: an ordinary agent run) or records why it
// did not. Invariants: a slot runs at most once (the run row is claimed before anything starts;
// lib/tasks/jobs.ts claimSlot); a job whose previous run is still going skips and records the
// skip; at start, a slot missed while the server was down runs once if it is less than one
// period late, else it is recorded as missed; time comes from `Timers`, so tests use a fake clock.
import type { Db } from "../storage/db.ts";
import type { Logger } from "../log.ts";
import type { TimerHandle, Timers } from "../timers.ts";
import {
  attachRun,
  claimSlot,
  finishRun,
  getJob,
  interruptStaleRuns,
  type JobRow,
  listJobs,
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

export class TaskScheduler {
  #timer: TimerHandle | null = null;
  #stopped = true;
  /** Runs started by this process and not yet recorded as ended. */
  #inFlight = new Set<Promise<void>>();

  constructor(private deps: SchedulerDeps) {}

  #nowSec(): number {
    return this.deps.timers.now() / 1000;
  }

  /** Start: close runs a stopped server left open, catch up what was missed, arm the timer. */
  start(): void {
    this.#stopped = false;
    const closed = interruptStaleRuns(this.deps.db, this.#nowSec());
    if (closed) this.deps.log.warn(`${closed} scheduled run(s) were interrupted by a restart`);
    this.#tick("catch_up");
  }

  /** Stop firing (runs already started go on; the app's RunManager owns them). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) this.deps.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Re-arm after a job was created, edited, paused, resumed or deleted. */
  rearm(): void {
    if (!this.#stopped) this.#arm();
  }

  /** Wait for the runs this process started to be recorded (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  /** The next time (epoch ms) `job` will run, or null (paused, or a one-off that ran). */
  nextRunAt(job: JobRow): number | null {
    if (!job.enabled) return null;
    const s = scheduleOf(job);
    const after = job.last_slot === null ? job.anchor * 1000 : job.last_slot * 1000;
    return nextSlot(s, after, job.anchor * 1000);
  }

  /** "Run now": a manual run in its own slot (now), skipped if the previous run still goes. */
  runNow(jobId: string): Promise<RunRow> {
    const job = getJob(this.deps.db, jobId);
    return this.#fire(job, this.deps.timers.now(), "manual");
  }

  #arm(): void {
    if (this.#timer !== null) this.deps.timers.clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#stopped) return;
    const now = this.deps.timers.now();
    let earliest = Infinity;
    for (const job of listJobs(this.deps.db)) {
      const at = this.nextRunAt(job);
      if (at !== null && at < earliest) earliest = at;
    }
    if (earliest === Infinity) earliest = now + MAX_WAIT_MS;
    const wait = Math.min(Math.max(0, earliest - now), MAX_WAIT_MS);
    this.#timer = this.deps.timers.setTimeout(() => {
      this.#timer = null;
      this.#tick("schedule");
    }, wait);
  }

  #tick(trigger: RunTrigger): void {
    if (this.#stopped) return;
    const now = this.deps.timers.now();
    for (const job of listJobs(this.deps.db)) {
      if (!job.enabled) continue;
      try {
        this.#due(job, now, trigger);
      } catch (err) {
        this.deps.log.error(`Scheduled task ${job.id} could not be started`, {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    this.#arm();
  }

  #due(job: JobRow, now: number, trigger: RunTrigger): void {
    const s = scheduleOf(job);
    const anchor = job.anchor * 1000;
    const since = job.last_slot === null ? anchor : job.last_slot * 1000;
    // The first slot not yet run: on time it fires; less than one period late (a short outage)
    // it fires once; later than that, it and every slot after it up to now are recorded missed.
    const first = nextSlot(s, since, anchor);
    if (first === null || first > now) return;
    if (now - first < periodAt(s, first, anchor)) {
      void this.#fire(job, first, trigger);
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
    claimSlot(
      this.deps.db,
      job.id,
      newest / 1000,
      trigger,
      "missed",
      now / 1000,
      `missed ${count} run(s) from ${from}: more than one period late when the server could run them`,
    );
  }

  async #fire(job: JobRow, slotMs: number, trigger: RunTrigger): Promise<RunRow> {
    const { db } = this.deps;
    const now = this.#nowSec();
    const slot = slotMs / 1000;
    if (runningRun(db, job.id)) {
      const skipped = claimSlot(
        db,
        job.id,
        slot,
        trigger,
        "skipped",
        now,
        "skipped: the previous run was still going",
      );
      return skipped ?? getRunAtSlot(db, job.id, slot);
    }
    const run = claimSlot(db, job.id, slot, trigger, "running", now);
    if (!run) return getRunAtSlot(db, job.id, slot); // claimed before: never fire twice
    let record: Promise<void>;
    try {
      const started = await this.deps.runner.start(job, run);
      attachRun(db, run.id, started.sessionId, started.streamId);
      record = started.done.then(
        (outcome) => finishRun(db, run.id, { ...outcome, now: this.#nowSec() }),
        (err) =>
          finishRun(db, run.id, { status: "error", now: this.#nowSec(), reason: String(err) }),
      );
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      finishRun(db, run.id, { status: "error", now: this.#nowSec(), reason });
      this.deps.log.warn(`Scheduled task ${job.id} failed to start`, { error: reason });
      record = Promise.resolve();
    }
    const tracked = record.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
    return db.prepare("SELECT * FROM cron_runs WHERE id = ?").get(run.id) as unknown as RunRow;
  }
}

function getRunAtSlot(db: Db, jobId: string, slot: number): RunRow {
  return db.prepare("SELECT * FROM cron_runs WHERE job_id = ? AND slot = ?").get(
    jobId,
    slot,
  ) as unknown as RunRow;
}
