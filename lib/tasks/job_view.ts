// The wire shapes of GET /api/crons and friends (the original's names: `jobs`, `job`,
// `next_run_at`, `last_status`, `state`…). Times leave as ISO strings, like the original.
import type { AsyncQueries } from "../storage/db.ts";
import {
  deliverLabel,
  type JobRow,
  lastRun,
  runningRun,
  type RunRow,
  scheduleOf,
  skillsOf,
} from "./jobs.ts";
import type { TaskScheduler } from "./scheduler.ts";
import { ValidationError } from "../errors.ts";

const iso = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000).toISOString();

export type JobState = "scheduled" | "paused" | "running" | "completed";

export type JobView = Awaited<ReturnType<typeof jobView>>;

export async function jobView(db: AsyncQueries, scheduler: TaskScheduler, job: JobRow) {
  const s = scheduleOf(job);
  const next = scheduler.nextRunAt(job);
  const [last, running] = await Promise.all([lastRun(db, job.id), runningRun(db, job.id)]);
  const state: JobState = running
    ? "running"
    : !job.enabled
    ? "paused"
    : next === null
    ? "completed"
    : "scheduled";
  return {
    id: job.id,
    name: job.name,
    prompt: job.prompt,
    schedule: { kind: s.kind, expr: s.expr, display: job.schedule },
    schedule_display: job.schedule,
    timezone: job.timezone,
    enabled: job.enabled === 1,
    state,
    next_run_at: next === null ? null : new Date(next).toISOString(),
    last_run_at: iso(last?.started_at),
    last_status: last?.status ?? null,
    last_error: last && (last.status === "error" || last.status === "missed") ? last.reason : null,
    deliver: deliverLabel(job.deliver),
    skills: skillsOf(job),
    model: job.model,
    workspace: job.workspace,
    profile: job.profile,
    deny_approvals: job.deny_approvals === 1,
    session_id: job.target_session_id,
    created_at: iso(job.created_at),
  };
}

/** Every job in `jobs` as the wire shows it, in order. */
export function jobViews(
  db: AsyncQueries,
  scheduler: TaskScheduler,
  jobs: JobRow[],
): Promise<JobView[]> {
  return Promise.all(jobs.map((job) => jobView(db, scheduler, job)));
}

export function runView(run: RunRow) {
  return {
    run_id: run.id,
    job_id: run.job_id,
    slot: iso(run.slot),
    trigger: run.trigger,
    status: run.status,
    reason: run.reason,
    session_id: run.session_id,
    stream_id: run.stream_id,
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    duration_s: run.finished_at === null ? null : Math.max(0, run.finished_at - run.started_at),
    input_tokens: run.input_tokens,
    output_tokens: run.output_tokens,
    cost: run.cost,
    output_head: run.output_head,
  };
}

/** `offset`/`limit` of a paged list, validated; limit capped at 500. */
export function pageParams(url: URL, defaultLimit: number): { offset: number; limit: number } {
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const limit = Number(url.searchParams.get("limit") ?? defaultLimit);
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1) {
    throw new ValidationError("offset and limit must be whole numbers (limit at least 1)");
  }
  return { offset, limit: Math.min(limit, 500) };
}
