// Scheduled task jobs and their runs in the database: `cron_jobs` (what to run, when, where) and
// `cron_runs` (one row per slot that came due: ran, skipped, missed or interrupted). Invariants:
// a slot is claimed by inserting its row, and UNIQUE(job_id, slot) refuses a second claim, so no
// slot fires twice — across restarts and replicas too; a job's schedule is always re-parsed on
// write. Every query is async and written once for SQLite and PostgreSQL (issue 28).
import { type AsyncQueries, sql } from "../storage/db.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { randomHex } from "../ids.ts";
import { SKILL_NAME_RE } from "../agent/skills.ts";
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
  /** JSON list of skill names its runs load (jobSkills()). */
  skills: string;
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
  skills?: unknown;
}

/** The most skills one job may load. */
export const MAX_JOB_SKILLS = 50;

/** The schedule a row describes. */
export function scheduleOf(job: JobRow): Schedule {
  return {
    kind: job.schedule_kind,
    expr: job.schedule_expr,
    display: job.schedule,
    timezone: job.timezone,
  };
}

/**
 * GET /api/crons/delivery-options: where a job's output can go, in the original's shape
 * (`value` is what create/update take as `deliver`). No messaging gateway here, so no
 * `origin` or platforms: output stays in the console, in a new session per run or in one.
 */
export function deliveryOptions(): Array<{ value: string; label: string }> {
  return [
    { value: "local", label: "Local (save output only)" },
    { value: "session", label: "Session (every run in one conversation)" },
  ];
}

/** `deliver` as the wire shows it: the original's `local` for a new session per run. */
export function deliverLabel(mode: DeliverMode): string {
  return mode === "new_session" ? "local" : mode;
}

/** The skill names of a job, checked: a list of valid names, duplicates dropped, in order. */
export function jobSkills(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    throw new ValidationError("skills must be a list of skill names", "skills");
  }
  const out: string[] = [];
  for (const item of v) {
    const name = typeof item === "string" ? item.trim() : item;
    if (typeof name !== "string" || !SKILL_NAME_RE.test(name) || name.includes("..")) {
      throw new ValidationError(`skills: ${JSON.stringify(item)} is not a skill name`, "skills");
    }
    if (!out.includes(name)) out.push(name);
  }
  if (out.length > MAX_JOB_SKILLS) {
    throw new ValidationError(`A task can load at most ${MAX_JOB_SKILLS} skills`, "skills");
  }
  return out;
}

/** The skills stored on `job` (a damaged value reads as none). */
export function skillsOf(job: Pick<JobRow, "skills">): string[] {
  try {
    const list = JSON.parse(job.skills ?? "[]");
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

function deliverMode(v: unknown): DeliverMode {
  if (v === undefined || v === null || v === "" || v === "local" || v === "new_session") {
    return "new_session";
  }
  if (v === "session") return "session";
  throw new ValidationError(
    `deliver must be "local" (a new session per run) or "session", not ${JSON.stringify(v)}`,
    "deliver",
  );
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

/**
 * The columns of a job and of a run, named: on PostgreSQL every table has an extra `rowid`
 * column, which must not leave this file in a row. Trusted text, never a value.
 */
const JOB_COLUMNS = sql.raw(
  `id, name, prompt, schedule, schedule_kind, schedule_expr, timezone, workspace, model, profile,
   deliver, target_session_id, deny_approvals, enabled, skills, anchor, last_slot, created_at,
   updated_at`,
);
const RUN_COLUMNS = sql.raw(
  `id, job_id, slot, trigger, status, reason, session_id, stream_id, started_at, finished_at,
   input_tokens, output_tokens, cost, output_head`,
);

export async function getJob(db: AsyncQueries, id: string): Promise<JobRow> {
  const row = await db.get<JobRow>(sql`SELECT ${JOB_COLUMNS} FROM cron_jobs WHERE id = ${id}`);
  if (row === undefined) throw new NotFoundError(`No scheduled task "${id}"`);
  return row;
}

export function listJobs(db: AsyncQueries): Promise<JobRow[]> {
  return db.all<JobRow>(sql`SELECT ${JOB_COLUMNS} FROM cron_jobs ORDER BY created_at, id`);
}

/** Create a job. `now` is epoch seconds; a one-off time already past is refused. */
export async function createJob(
  db: AsyncQueries,
  input: JobInput,
  now: number,
  defaultZone: string,
): Promise<JobRow> {
  const prompt = text(input.prompt, "prompt", 100_000);
  const skills = jobSkills(input.skills);
  const timezone = input.timezone || defaultZone;
  const schedule = parseSchedule(text(input.schedule, "schedule", 200), timezone, now * 1000);
  if (nextSlot(schedule, now * 1000, now * 1000) === null) {
    throw new ValidationError(`"${input.schedule}" is in the past`, "schedule");
  }
  const name = typeof input.name === "string" && input.name.trim()
    ? input.name.trim().slice(0, 200)
    : prompt.replace(/\s+/g, " ").trim().slice(0, 60);
  const [row] = await db.all<JobRow>(
    sql`INSERT INTO cron_jobs (id, name, prompt, schedule, schedule_kind, schedule_expr, timezone,
          workspace, model, profile, deliver, deny_approvals, enabled, skills, anchor, created_at,
          updated_at)
        VALUES (${randomHex(12)}, ${name}, ${prompt},
          ${schedule.kind === "cron" ? schedule.expr : schedule.display}, ${schedule.kind},
          ${schedule.expr}, ${schedule.timezone}, ${optionalText(input.workspace, "workspace")},
          ${optionalText(input.model, "model")}, ${optionalText(input.profile, "profile")},
          ${deliverMode(input.deliver)}, ${input.deny_approvals === false ? 0 : 1},
          ${input.enabled === false ? 0 : 1}, ${JSON.stringify(skills)}, ${now},
          ${now}, ${now})
        RETURNING ${JOB_COLUMNS}`,
  );
  return row;
}

/**
 * Apply the given fields; a new schedule re-anchors intervals at `now`. Read and write are one
 * transaction with the job's row locked (PostgreSQL), so two edits at once never lose a field.
 */
export function updateJob(
  db: AsyncQueries,
  id: string,
  input: JobInput,
  now: number,
): Promise<JobRow> {
  return db.transaction(async (tx) => {
    // SQLite has no FOR UPDATE: its one connection's transaction already excludes other writers.
    const lock = tx.backend === "postgres" ? sql` FOR UPDATE` : sql``;
    const job = await tx.get<JobRow>(
      sql`SELECT ${JOB_COLUMNS} FROM cron_jobs WHERE id = ${id}${lock}`,
    );
    if (job === undefined) throw new NotFoundError(`No scheduled task "${id}"`);
    const next = editedJob(job, input, now);
    const [row] = await tx.all<JobRow>(
      sql`UPDATE cron_jobs SET name = ${next.name}, prompt = ${next.prompt},
            schedule = ${next.schedule}, schedule_kind = ${next.schedule_kind},
            schedule_expr = ${next.schedule_expr}, timezone = ${next.timezone},
            workspace = ${next.workspace}, model = ${next.model}, profile = ${next.profile},
            deliver = ${next.deliver}, deny_approvals = ${next.deny_approvals},
            enabled = ${next.enabled}, skills = ${next.skills}, anchor = ${next.anchor},
            updated_at = ${now}
          WHERE id = ${id}
          RETURNING ${JOB_COLUMNS}`,
    );
    return row;
  });
}

/** `job` with `input`'s fields applied and validated (no database: kept out of the lock). */
function editedJob(job: JobRow, input: JobInput, now: number): JobRow {
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
  if (input.skills !== undefined) next.skills = JSON.stringify(jobSkills(input.skills));
  return next;
}

/** Delete a job and its history (ON DELETE CASCADE); its sessions stay. */
export async function deleteJob(db: AsyncQueries, id: string): Promise<void> {
  const { changes } = await db.run(sql`DELETE FROM cron_jobs WHERE id = ${id}`);
  if (changes === 0) throw new NotFoundError(`No scheduled task "${id}"`);
}

/** Remember the accumulating session of a `deliver: session` job. */
export async function setTargetSession(
  db: AsyncQueries,
  id: string,
  sessionId: string,
): Promise<void> {
  await db.run(sql`UPDATE cron_jobs SET target_session_id = ${sessionId} WHERE id = ${id}`);
}

/**
 * Claim `slot` for `job`: insert its run row. Null when the slot was claimed already (by this
 * process before a restart, or by another replica): the caller must then not run it. The claim
 * is the one INSERT: of two replicas claiming at once, UNIQUE(job_id, slot) lets exactly one
 * row in, and ON CONFLICT DO NOTHING gives the other no row back (on PostgreSQL it waits for
 * the winner's commit first). Not a transaction: on SQLite, two connections of one process
 * (tests, a second scheduler) would each hold one open across an await and wait on the other.
 */
export async function claimSlot(
  db: AsyncQueries,
  jobId: string,
  slot: number,
  trigger: RunTrigger,
  status: RunStatus,
  now: number,
  reason: string | null = null,
): Promise<RunRow | null> {
  const claimed = await db.all<RunRow>(
    sql`INSERT INTO cron_runs (job_id, slot, trigger, status, reason, started_at, finished_at)
        VALUES (${jobId}, ${slot}, ${trigger}, ${status}, ${reason}, ${now},
          ${status === "running" ? null : now})
        ON CONFLICT (job_id, slot) DO NOTHING
        RETURNING ${RUN_COLUMNS}`,
  );
  if (trigger !== "manual") {
    // After the claim, and whether or not it won: the job has moved past `slot` either way, and
    // a crash between the two statements leaves a claimed slot that the next tick skips (its
    // claim finds the row) and then records here. Only ever forward.
    await db.run(
      sql`UPDATE cron_jobs SET last_slot = ${slot}
          WHERE id = ${jobId} AND (last_slot IS NULL OR last_slot < ${slot})`,
    );
  }
  // Checked by count, never by truthiness: one row back is this call's claim, none is a loss.
  return claimed.length === 1 ? claimed[0] : null;
}

/** The run of `jobId` still going, if any. */
export async function runningRun(db: AsyncQueries, jobId: string): Promise<RunRow | null> {
  return (await db.get<RunRow>(
    sql`SELECT ${RUN_COLUMNS} FROM cron_runs WHERE job_id = ${jobId} AND status = 'running'
        ORDER BY id DESC LIMIT 1`,
  )) ?? null;
}

/** Every run still going, of every job. */
export function runningRuns(db: AsyncQueries): Promise<RunRow[]> {
  return db.all<RunRow>(
    sql`SELECT ${RUN_COLUMNS} FROM cron_runs WHERE status = 'running' ORDER BY id`,
  );
}

/** One run of `jobId`, or null (no such run, or it belongs to another job). */
export async function getRun(
  db: AsyncQueries,
  jobId: string,
  runId: number,
): Promise<RunRow | null> {
  return (await db.get<RunRow>(
    sql`SELECT ${RUN_COLUMNS} FROM cron_runs WHERE job_id = ${jobId} AND id = ${runId}`,
  )) ?? null;
}

/** The run that holds `slot` of `jobId` (the one that claimed it), or null. */
export async function runAtSlot(
  db: AsyncQueries,
  jobId: string,
  slot: number,
): Promise<RunRow | null> {
  return (await db.get<RunRow>(
    sql`SELECT ${RUN_COLUMNS} FROM cron_runs WHERE job_id = ${jobId} AND slot = ${slot}`,
  )) ?? null;
}

export async function attachRun(
  db: AsyncQueries,
  runId: number,
  sessionId: string,
  streamId: string,
): Promise<void> {
  await db.run(
    sql`UPDATE cron_runs SET session_id = ${sessionId}, stream_id = ${streamId}
        WHERE id = ${runId}`,
  );
}

/** Close a run with its outcome. */
export async function finishRun(
  db: AsyncQueries,
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
): Promise<void> {
  const { status, now, reason = null, cost = null, output_head = null } = outcome;
  const { input_tokens = 0, output_tokens = 0 } = outcome;
  // CAST: PostgreSQL cannot tell a lone NULL parameter's type inside COALESCE otherwise.
  await db.run(
    sql`UPDATE cron_runs SET status = ${status}, finished_at = ${now},
          reason = COALESCE(CAST(${reason} AS TEXT), reason), input_tokens = ${input_tokens},
          output_tokens = ${output_tokens}, cost = ${cost}, output_head = ${output_head}
        WHERE id = ${runId}`,
  );
}

/**
 * Runs left `running` by a server that stopped: they can never finish now. A run whose agent
 * stream still runs — on another replica sharing the database — is alive and left alone (at a
 * lone process's start-up no stream runs any more: the journal's recovery closed them first).
 */
export async function interruptStaleRuns(db: AsyncQueries, now: number): Promise<number> {
  const { changes } = await db.run(
    sql`UPDATE cron_runs SET status = 'interrupted', finished_at = ${now},
          reason = 'the server stopped during the run'
        WHERE status = 'running' AND (stream_id IS NULL
          OR stream_id NOT IN (SELECT stream_id FROM streams WHERE status = 'running'))`,
  );
  return changes;
}

export function runHistory(
  db: AsyncQueries,
  jobId: string,
  offset: number,
  limit: number,
): Promise<RunRow[]> {
  return db.all<RunRow>(
    sql`SELECT ${RUN_COLUMNS} FROM cron_runs WHERE job_id = ${jobId}
        ORDER BY started_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
}

export async function countRuns(db: AsyncQueries, jobId: string): Promise<number> {
  const row = await db.get<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM cron_runs WHERE job_id = ${jobId}`,
  );
  return Number(row?.n ?? 0);
}

/** Runs that finished after `since` (epoch seconds), newest first. */
export function recentRuns(db: AsyncQueries, since: number, limit = 50): Promise<RunRow[]> {
  return db.all<RunRow>(
    sql`SELECT ${RUN_COLUMNS} FROM cron_runs WHERE finished_at IS NOT NULL AND finished_at > ${since}
        ORDER BY finished_at DESC LIMIT ${limit}`,
  );
}

export async function lastRun(db: AsyncQueries, jobId: string): Promise<RunRow | null> {
  return (await db.get<RunRow>(
    sql`SELECT ${RUN_COLUMNS} FROM cron_runs WHERE job_id = ${jobId}
        ORDER BY started_at DESC, id DESC LIMIT 1`,
  )) ?? null;
}

/**
 * Why a command that would ask must be denied in this session, or null: the session belongs to
 * a scheduled task marked to deny anything that asks (nobody is there to answer).
 */
export async function unattendedReason(
  db: AsyncQueries,
  sessionId: string,
): Promise<string | null> {
  const row = await db.get<{ name: string }>(
    sql`SELECT j.name AS name FROM sessions s JOIN cron_jobs j ON j.id = s.cron_job_id
        WHERE s.session_id = ${sessionId} AND j.deny_approvals = 1`,
  );
  return row
    ? `Denied: the scheduled task "${row.name}" runs unattended and denies anything that asks ` +
      `for approval. Find a way that needs no approval, or say what you would need.`
    : null;
}

/** Mark `sessionId` as a session of `jobId` (the sidebar's Tasks filter, unattended denials). */
export async function tagTaskSession(
  db: AsyncQueries,
  sessionId: string,
  jobId: string,
): Promise<void> {
  await db.run(sql`UPDATE sessions SET cron_job_id = ${jobId} WHERE session_id = ${sessionId}`);
}
