// Scheduled task jobs and their runs in the database: `cron_jobs` (what to run, when, where) and
// `cron_runs` (one row per slot that came due: ran, skipped, missed or interrupted). Invariants:
// a slot is claimed by inserting its row, and UNIQUE(job_id, slot) refuses a second claim, so no
// slot fires twice — across restarts too; a job's schedule is always re-parsed on write.
import type { Db } from "../storage/db.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { randomHex } from "../ids.ts";
import { nextSlot, parseSchedule, type Schedule, type ScheduleKind } from "./schedule.ts";

export type DeliverMode = "new_session" | "session";
export type RunStatus = "running" | "completed" | "error" | "skipped" | "missed" | "interrupted";
export type RunTrigger = "schedule" | "catch_up" | "manual";

/** A job as stored. Times are epoch seconds, like every other table. */
export interface JobRow {
  id: string;
  name: string;
  prompt: string;
  schedule: string;
  schedule_kind: ScheduleKind;
  schedule_expr: string;
  timezone: string;
  workspace: string | null;
  model: string | null;
  profile: string | null;
  deliver: DeliverMode;
  target_session_id: string | null;
  deny_approvals: number;
  enabled: number;
  anchor: number;
  last_slot: number | null;
  created_at: number;
  updated_at: number;
}

export interface RunRow {
  id: number;
  job_id: string;
  slot: number;
  trigger: RunTrigger;
  status: RunStatus;
  reason: string | null;
  session_id: string | null;
  stream_id: string | null;
  started_at: number;
  finished_at: number | null;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  output_head: string | null;
}

/** What POST /api/crons/create and /update accept (the original's names). */
export interface JobInput {
  name?: string;
  prompt?: string;
  schedule?: string;
  timezone?: string;
  workspace?: string | null;
  model?: string | null;
  profile?: string | null;
  deliver?: string;
  deny_approvals?: boolean;
  enabled?: boolean;
}

/** The schedule a row describes. */
export function scheduleOf(job: JobRow): Schedule {
  return {
    kind: job.schedule_kind,
    expr: job.schedule_expr,
    display: job.schedule,
    timezone: job.timezone,
  };
}

function deliverMode(v: unknown): DeliverMode {
  if (v === undefined || v === null || v === "" || v === "local" || v === "new_session") {
    return "new_session";
  }
  if (v === "session") return "session";
  throw new ValidationError(`deliver must be "new_session" or "session", not ${JSON.stringify(v)}`);
}

function text(v: unknown, field: string, max: number): string {
  if (typeof v !== "string" || !v.trim()) throw new ValidationError(`${field} is required`, field);
  if (v.length > max) throw new ValidationError(`${field} is longer than ${max} characters`, field);
  return v;
}

function optionalText(v: unknown, field: string): string | null {
  if (v === undefined || v === null || v === "") return null;
  if (typeof v !== "string" || v.length > 4096) {
    throw new ValidationError(`${field} must be a string`, field);
  }
  return v;
}

export function getJob(db: Db, id: string): JobRow {
  const row = db.prepare("SELECT * FROM cron_jobs WHERE id = ?").get(id) as JobRow | undefined;
  if (!row) throw new NotFoundError(`No scheduled task "${id}"`);
  return row;
}

export function listJobs(db: Db): JobRow[] {
  return db.prepare("SELECT * FROM cron_jobs ORDER BY created_at, id").all() as unknown as JobRow[];
}

/** Create a job. `now` is epoch seconds; a one-off time already past is refused. */
export function createJob(db: Db, input: JobInput, now: number, defaultZone: string): JobRow {
  const prompt = text(input.prompt, "prompt", 100_000);
  const timezone = input.timezone || defaultZone;
  const schedule = parseSchedule(text(input.schedule, "schedule", 200), timezone, now * 1000);
  if (nextSlot(schedule, now * 1000, now * 1000) === null) {
    throw new ValidationError(`"${input.schedule}" is in the past`, "schedule");
  }
  const id = randomHex(12);
  const name = typeof input.name === "string" && input.name.trim()
    ? input.name.trim().slice(0, 200)
    : prompt.replace(/\s+/g, " ").trim().slice(0, 60);
  db.prepare(
    `INSERT INTO cron_jobs (id, name, prompt, schedule, schedule_kind, schedule_expr, timezone,
       workspace, model, profile, deliver, deny_approvals, enabled, anchor, created_at,
       updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    name,
    prompt,
    schedule.kind === "cron" ? schedule.expr : schedule.display,
    schedule.kind,
    schedule.expr,
    schedule.timezone,
    optionalText(input.workspace, "workspace"),
    optionalText(input.model, "model"),
    optionalText(input.profile, "profile"),
    deliverMode(input.deliver),
    input.deny_approvals === false ? 0 : 1,
    input.enabled === false ? 0 : 1,
    now,
    now,
    now,
  );
  return getJob(db, id);
}

/** Apply the given fields; a new schedule re-anchors intervals at `now`. */
export function updateJob(db: Db, id: string, input: JobInput, now: number): JobRow {
  const job = getJob(db, id);
  const next: JobRow = { ...job, updated_at: now };
  if (input.name !== undefined) next.name = text(input.name, "name", 200).trim();
  if (input.prompt !== undefined) next.prompt = text(input.prompt, "prompt", 100_000);
  if (input.schedule !== undefined || input.timezone !== undefined) {
    const zone = input.timezone || job.timezone;
    const raw = input.schedule ?? (job.schedule_kind === "cron" ? job.schedule_expr : job.schedule);
    const s = parseSchedule(text(raw, "schedule", 200), zone, now * 1000);
    Object.assign(next, {
      schedule: s.kind === "cron" ? s.expr : s.display,
      schedule_kind: s.kind,
      schedule_expr: s.expr,
      timezone: s.timezone,
      anchor: now,
    });
  }
  if (input.workspace !== undefined) next.workspace = optionalText(input.workspace, "workspace");
  if (input.model !== undefined) next.model = optionalText(input.model, "model");
  if (input.profile !== undefined) next.profile = optionalText(input.profile, "profile");
  if (input.deliver !== undefined) next.deliver = deliverMode(input.deliver);
  if (input.deny_approvals !== undefined) next.deny_approvals = input.deny_approvals ? 1 : 0;
  if (input.enabled !== undefined) next.enabled = input.enabled ? 1 : 0;
  db.prepare(
    `UPDATE cron_jobs SET name = ?, prompt = ?, schedule = ?, schedule_kind = ?, schedule_expr = ?,
       timezone = ?, workspace = ?, model = ?, profile = ?, deliver = ?, deny_approvals = ?,
       enabled = ?, anchor = ?, updated_at = ? WHERE id = ?`,
  ).run(
    next.name,
    next.prompt,
    next.schedule,
    next.schedule_kind,
    next.schedule_expr,
    next.timezone,
    next.workspace,
    next.model,
    next.profile,
    next.deliver,
    next.deny_approvals,
    next.enabled,
    next.anchor,
    now,
    id,
  );
  return getJob(db, id);
}

export function deleteJob(db: Db, id: string): void {
  getJob(db, id);
  db.prepare("DELETE FROM cron_jobs WHERE id = ?").run(id);
}

/** Remember the accumulating session of a `deliver: session` job. */
export function setTargetSession(db: Db, id: string, sessionId: string): void {
  db.prepare("UPDATE cron_jobs SET target_session_id = ? WHERE id = ?").run(sessionId, id);
}

/**
 * Claim `slot` for `job`: insert its run row. Null when the slot was claimed already (by this
 * process before a restart, or by another): the caller must then not run it.
 */
export function claimSlot(
  db: Db,
  jobId: string,
  slot: number,
  trigger: RunTrigger,
  status: RunStatus,
  now: number,
  reason: string | null = null,
): RunRow | null {
  // RETURNING, not lastInsertRowid: PostgreSQL has no last rowid; no row back = already claimed.
  const claimed = db.prepare(
    `INSERT INTO cron_runs (job_id, slot, trigger, status, reason, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
  ).get(jobId, slot, trigger, status, reason, now, status === "running" ? null : now) as
    | { id: number }
    | undefined;
  if (trigger !== "manual") {
    // CASE, not the two-argument max() PostgreSQL lacks.
    db.prepare(
      `UPDATE cron_jobs SET last_slot = CASE WHEN COALESCE(last_slot, 0) >= CAST(? AS DOUBLE PRECISION)
         THEN COALESCE(last_slot, 0) ELSE CAST(? AS DOUBLE PRECISION) END WHERE id = ?`,
    ).run(slot, slot, jobId);
  }
  if (!claimed) return null;
  return db.prepare("SELECT * FROM cron_runs WHERE id = ?").get(claimed.id) as unknown as RunRow;
}

/** The run of `jobId` still going, if any. */
export function runningRun(db: Db, jobId: string): RunRow | null {
  return (db.prepare(
    "SELECT * FROM cron_runs WHERE job_id = ? AND status = 'running' ORDER BY id DESC LIMIT 1",
  ).get(jobId) as unknown as RunRow | undefined) ?? null;
}

export function attachRun(db: Db, runId: number, sessionId: string, streamId: string): void {
  db.prepare("UPDATE cron_runs SET session_id = ?, stream_id = ? WHERE id = ?").run(
    sessionId,
    streamId,
    runId,
  );
}

/** Close a run with its outcome. */
export function finishRun(
  db: Db,
  runId: number,
  outcome: {
    status: Exclude<RunStatus, "running">;
    now: number;
    reason?: string | null;
    input_tokens?: number;
    output_tokens?: number;
    cost?: number | null;
    output_head?: string | null;
  },
): void {
  db.prepare(
    `UPDATE cron_runs SET status = ?, finished_at = ?, reason = COALESCE(CAST(? AS TEXT), reason),
       input_tokens = ?, output_tokens = ?, cost = ?, output_head = ? WHERE id = ?`,
  ).run(
    outcome.status,
    outcome.now,
    outcome.reason ?? null,
    outcome.input_tokens ?? 0,
    outcome.output_tokens ?? 0,
    outcome.cost ?? null,
    outcome.output_head ?? null,
    runId,
  );
}

/**
 * Runs left `running` by a server that stopped: they can never finish now. A run whose agent
 * stream still runs — on another replica sharing the database — is alive and left alone (at a
 * lone process's start-up no stream runs any more: the journal's recovery closed them first).
 */
export function interruptStaleRuns(db: Db, now: number): number {
  const res = db.prepare(
    `UPDATE cron_runs SET status = 'interrupted', finished_at = ?,
       reason = 'the server stopped during the run' WHERE status = 'running'
       AND (stream_id IS NULL OR stream_id NOT IN (SELECT stream_id FROM streams WHERE status = 'running'))`,
  ).run(now);
  return Number(res.changes);
}

export function runHistory(db: Db, jobId: string, offset: number, limit: number): RunRow[] {
  return db.prepare(
    "SELECT * FROM cron_runs WHERE job_id = ? ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?",
  ).all(jobId, limit, offset) as unknown as RunRow[];
}

export function countRuns(db: Db, jobId: string): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM cron_runs WHERE job_id = ?").get(jobId) as {
    n: number;
  }).n;
}

/** Runs that finished after `since` (epoch seconds), newest first. */
export function recentRuns(db: Db, since: number, limit = 50): RunRow[] {
  return db.prepare(
    `SELECT * FROM cron_runs WHERE finished_at IS NOT NULL AND finished_at > ?
       ORDER BY finished_at DESC LIMIT ?`,
  ).all(since, limit) as unknown as RunRow[];
}

export function lastRun(db: Db, jobId: string): RunRow | null {
  return (db.prepare(
    "SELECT * FROM cron_runs WHERE job_id = ? ORDER BY started_at DESC, id DESC LIMIT 1",
  ).get(jobId) as unknown as RunRow | undefined) ?? null;
}

/**
 * Why a command that would ask must be denied in this session, or null: the session belongs to
 * a scheduled task marked to deny anything that asks (nobody is there to answer).
 */
export function unattendedReason(db: Db, sessionId: string): string | null {
  const row = db.prepare(
    `SELECT j.name AS name FROM sessions s JOIN cron_jobs j ON j.id = s.cron_job_id
     WHERE s.session_id = ? AND j.deny_approvals = 1`,
  ).get(sessionId) as { name: string } | undefined;
  return row
    ? `Denied: the scheduled task "${row.name}" runs unattended and denies anything that asks ` +
      `for approval. Find a way that needs no approval, or say what you would need.`
    : null;
}

/** Mark `sessionId` as a session of `jobId` (the sidebar's Tasks filter, unattended denials). */
export function tagTaskSession(db: Db, sessionId: string, jobId: string): void {
  db.prepare("UPDATE sessions SET cron_job_id = ? WHERE session_id = ?").run(jobId, sessionId);
}
