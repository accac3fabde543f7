// How a scheduled task's slot becomes an ordinary agent run: a session (a new one per run, or
// the job's one accumulating session), tagged with the job so the sidebar can filter it and
// unattended jobs deny what would ask; then RunManager.start like a message typed by a person,
// so the run is journaled, streamable and goes through approvals. Invariant: the outcome
// recorded in history is read back from the run's own journal and metering, never guessed.
import { type AsyncQueries, type Db, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { AppConfig } from "../settings/config.ts";
import type { EngineHost } from "../engine/engine_host.ts";
import type { RunManager } from "../engine/run_manager.ts";
import { createSession, findSession } from "../sessions/sessions.ts";
import { contentText } from "../sessions/messages.ts";
import { resolveTrustedWorkspace } from "../workspace/workspaces.ts";
import { type JobRow, type RunRow, setTargetSession, tagTaskSession } from "./jobs.ts";
import type { RunOutcome, TaskRunner } from "./scheduler.ts";

export interface TaskRunnerApp extends EngineHost {
  db: Db;
  clock: Clock;
  config: AppConfig;
  runs: RunManager;
}

/** The first lines of a run's answer, for the history list. */
const OUTPUT_HEAD_CHARS = 600;

export function createTaskRunner(app: TaskRunnerApp): TaskRunner {
  return {
    async start(job: JobRow, run: RunRow) {
      const workspace = await resolveTrustedWorkspace(
        app,
        job.workspace ?? app.config.defaultWorkspace,
      );
      let sessionId = job.deliver === "session" && job.target_session_id &&
          await findSession(app.db, job.target_session_id)
        ? job.target_session_id
        : null;
      if (!sessionId) {
        const when = new Date(run.slot * 1000).toISOString().slice(0, 16).replace("T", " ");
        const session = await createSession(app.db, app.clock, {
          title: job.deliver === "session" ? job.name : `${job.name} · ${when}`,
          workspace,
          model: job.model ?? app.config.defaultModel ?? null,
        });
        sessionId = session.session_id;
        await tagTaskSession(app.db, sessionId, job.id);
        if (job.deliver === "session") await setTargetSession(app.db, job.id, sessionId);
      }
      const started = await app.runs.start(app, {
        sessionId,
        message: job.prompt,
        ...(job.model ? { model: job.model } : {}),
      });
      const live = app.runs.get(started.stream_id);
      const done = (live?.done ?? Promise.resolve()).then(() =>
        outcomeOf(app.db, started.stream_id, sessionId!)
      );
      return { sessionId, streamId: started.stream_id, done };
    },
  };
}

/** What the run's journal and metering say about how it ended. */
export async function outcomeOf(
  db: AsyncQueries,
  streamId: string,
  sessionId: string,
): Promise<RunOutcome> {
  const stream = await db.get<{ status: string }>(
    sql`SELECT status FROM streams WHERE stream_id = ${streamId}`,
  );
  const usage = await db.get<{ i: number; o: number; c: number | null }>(
    sql`SELECT COALESCE(SUM(input_tokens), 0) AS i, COALESCE(SUM(output_tokens), 0) AS o,
          SUM(cost) AS c FROM usage WHERE stream_id = ${streamId}`,
  );
  const last = await db.get<{ content: string }>(
    sql`SELECT content FROM messages WHERE session_id = ${sessionId} AND role = 'assistant'
        ORDER BY idx DESC LIMIT 1`,
  );
  // Multimodal parts are kept elsewhere; the `content` column is the message's text.
  const head = contentText(last?.content ?? "").trim().slice(0, OUTPUT_HEAD_CHARS) || null;
  const status = stream?.status === "done"
    ? "completed"
    : stream?.status === "interrupted"
    ? "interrupted"
    : "error";
  const reason = status === "error" ? await errorReason(db, streamId, stream?.status) : null;
  return {
    status,
    reason,
    // Numbers on both backends (a PostgreSQL SUM is numeric, read as a number).
    input_tokens: Number(usage?.i ?? 0),
    output_tokens: Number(usage?.o ?? 0),
    cost: usage?.c ?? null,
    output_head: head,
  };
}

async function errorReason(
  db: AsyncQueries,
  streamId: string,
  status: string | undefined,
): Promise<string> {
  if (status === "cancelled") return "cancelled";
  const row = await db.get<{ data: string }>(
    sql`SELECT data FROM stream_events WHERE stream_id = ${streamId} AND event = 'apperror'
        ORDER BY seq DESC LIMIT 1`,
  );
  if (!row) return status ?? "the run did not finish";
  try {
    const e = JSON.parse(row.data) as { message?: string; type?: string };
    return e.message ?? e.type ?? "error";
  } catch {
    return "error";
  }
}
