// The run journal: one `streams` row per agent run and every event it emitted, in order, in
// `stream_events`. Invariants: a run writes its events here one at a time, in seq order (the
// run chains the writes, lib/engine/run.ts), and a reader of a live run waits for the writes
// queued before it subscribed, so a reconnecting client can always replay what it missed; seq
// numbers start at 1 and have no gaps; a session points at most one running stream
// (`sessions.active_stream_id`), claimed atomically; a run found `running` at start-up was cut
// off and is closed as interrupted. Every query here is async and takes the handle to run
// on, so the end of a run and the recovery call them with their transaction's.
import { type AsyncQueries, parseJsonColumn, sql } from "../storage/db.ts";
import type { ChatEvent, SequencedEvent } from "../shared/chat_events.ts";
import type { Clock } from "../ids.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { publishSessionsChanged } from "../sessions/session_events.ts";
import { recoverRunMessages } from "./journal_recovery.ts";
import { CHANNELS } from "../replicas/bus.ts";
import { OWNER_GONE } from "../replicas/replica_liveness.ts";

export type StreamStatus = "running" | "done" | "cancelled" | "error" | "interrupted";

export interface StreamRow {
  stream_id: string;
  session_id: string;
  turn_id: string;
  status: StreamStatus;
  model: string | null;
  model_provider: string | null;
  started_at: number;
  ended_at: number | null;
  last_seq: number;
}

export interface NewStream {
  streamId: string;
  sessionId: string;
  turnId: string;
  model?: string | null;
  modelProvider?: string | null;
  /** The process that runs it, and until when its lease holds (lib/replicas/run_leases.ts). */
  ownerReplica?: string;
  leaseUntil?: number;
}

/** How a claim ended: the session is this run's now, or another run holds it (named). */
export type SessionClaim = { ok: true } | { ok: false; conflict: string };

/** Claims tried in a row when each one finds the session just freed by the run that held it. */
const CLAIM_ATTEMPTS = 3;

/**
 * Make `streamId` the session's active run and record it as running, or name the run that
 * already holds the session (the caller answers 409 with it). An unknown session is a
 * NotFoundError.
 *
 * The claim is one conditional UPDATE, so of two replicas starting a run at once exactly one
 * changes the row. Each step is a statement of its own, not one transaction: on PostgreSQL an
 * open transaction that wrote `sessions` holds its row locks (and the sessions_generation row
 * every write to sessions bumps) across event-loop turns, and every other write to sessions of
 * every replica would wait on them meanwhile. So the run is recorded first, then claimed: a session never
 * points at a run that was not recorded, and a lost claim deletes its record again (if the
 * process dies in between, the record's lease lapses and recovery closes it).
 */
export async function claimSession(
  db: AsyncQueries,
  clock: Clock,
  s: NewStream,
): Promise<SessionClaim> {
  await recordRun(db, clock, s);
  let claim: SessionClaim | undefined;
  try {
    claim = await claimRecordedRun(db, s);
  } finally {
    if (!claim?.ok) {
      await db.run(sql`DELETE FROM streams WHERE stream_id = ${s.streamId}`).catch(() => {
        // Left running with its lease: recovery closes it once the lease lapses.
      });
    }
  }
  if (claim.ok) await publishSessionsChanged(db, "run_start", s.sessionId);
  return claim;
}

/** Insert the run's `streams` row (status running). A session that is gone is a 404. */
async function recordRun(db: AsyncQueries, clock: Clock, s: NewStream): Promise<void> {
  try {
    await db.run(
      sql`INSERT INTO streams (stream_id, session_id, turn_id, status, model, model_provider,
            started_at, owner_replica, lease_until)
          VALUES (${s.streamId}, ${s.sessionId}, ${s.turnId}, 'running', ${s.model ?? null},
            ${s.modelProvider ?? null}, ${clock()}, ${s.ownerReplica ?? null},
            ${s.leaseUntil ?? null})`,
    );
  } catch (err) {
    // The foreign key refused it: say which session, as a 404, in both dialects' terms.
    if (!await sessionExists(db, s.sessionId)) {
      throw new NotFoundError(`Session "${s.sessionId}" not found`, { cause: err });
    }
    throw err;
  }
}

async function sessionExists(db: AsyncQueries, sessionId: string): Promise<boolean> {
  const row = await db.get<{ session_id: string }>(
    sql`SELECT session_id FROM sessions WHERE session_id = ${sessionId}`,
  );
  return row !== undefined;
}

/** The conditional UPDATE, and on a loss the winner's stream, read after the winner's commit. */
async function claimRecordedRun(db: AsyncQueries, s: NewStream): Promise<SessionClaim> {
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    const won = await db.all<{ session_id: string }>(
      sql`UPDATE sessions SET active_stream_id = ${s.streamId}
          WHERE session_id = ${s.sessionId} AND active_stream_id IS NULL
          RETURNING session_id`,
    );
    if (won.length === 1) return { ok: true };
    // Lost, or the session was deleted meanwhile. On PostgreSQL the UPDATE waited for a
    // concurrent winner's commit, and this read, a statement of its own, sees that commit.
    const row = await db.get<{ active_stream_id: string | null }>(
      sql`SELECT active_stream_id FROM sessions WHERE session_id = ${s.sessionId}`,
    );
    if (row === undefined) throw new NotFoundError(`Session "${s.sessionId}" not found`);
    if (row.active_stream_id !== null) return { ok: false, conflict: row.active_stream_id };
    // The winner already finished and freed the session between the two statements: the
    // session is free again, so claim it once more rather than name a holder that is gone.
  }
  throw new ConflictError(
    `Session "${s.sessionId}" was taken and freed ${CLAIM_ATTEMPTS} times while a run tried ` +
      "to start in it; send again",
  );
}

/**
 * Undo a claim whose run never started (what came after the claim failed): free the session if
 * this run still holds it, then forget the stream, which has no events yet. Two statements, not
 * one transaction, for the reason claimSession gives; freeing first means a stop in between
 * leaves a running record that recovery closes, never a session held by nothing.
 */
export async function abandonClaim(
  db: AsyncQueries,
  sessionId: string,
  streamId: string,
): Promise<void> {
  const { changes } = await db.run(
    sql`UPDATE sessions SET active_stream_id = NULL
        WHERE session_id = ${sessionId} AND active_stream_id = ${streamId}`,
  );
  await db.run(sql`DELETE FROM streams WHERE stream_id = ${streamId}`);
  if (changes === 1) await publishSessionsChanged(db, "run_end", sessionId);
}

/**
 * Clear the session's active run, but only if it is still `streamId` (never a newer one).
 * Takes the handle to run on: Run.end and the recovery call it inside their transactions.
 */
export async function releaseSession(
  db: AsyncQueries,
  sessionId: string,
  streamId: string,
): Promise<void> {
  await db.run(
    sql`UPDATE sessions SET active_stream_id = NULL
        WHERE session_id = ${sessionId} AND active_stream_id = ${streamId}`,
  );
}

/** Writes one event of a stream to the journal, on `q` when given (a transaction), else the appender's database. */
export type EventAppender = (
  streamId: string,
  seq: number,
  e: ChatEvent,
  q?: AsyncQueries,
) => Promise<void>;

/**
 * An appender for one database (hot path: one INSERT per event). On PostgreSQL the same
 * statement also signals `stream_id:seq` on the run channel (lib/replicas/bus.ts), so a replica
 * following the run reads it from the table — the event itself never travels in the signal.
 * Each call is one statement of its own: callers that need events in seq order (Run) start a
 * write only once the previous one settled.
 */
export function createEventAppender(db: AsyncQueries, clock: Clock): EventAppender {
  return async (streamId, seq, e, q = db) => {
    const data = JSON.stringify(e.data);
    if (q.backend === "postgres") {
      await q.run(
        sql`WITH e AS (INSERT INTO stream_events (stream_id, seq, event, data, created_at)
              VALUES (${streamId}, ${seq}, ${e.event}, ${data}, ${clock()})
              RETURNING stream_id, seq)
            SELECT pg_notify(CAST(${CHANNELS.run} AS TEXT), stream_id || ':' || seq) FROM e`,
      );
    } else {
      await q.run(
        sql`INSERT INTO stream_events (stream_id, seq, event, data, created_at)
            VALUES (${streamId}, ${seq}, ${e.event}, ${data}, ${clock()})`,
      );
    }
  };
}

/** Events of a stream with seq > afterSeq, in order. */
export async function readEvents(
  db: AsyncQueries,
  streamId: string,
  afterSeq = 0,
): Promise<SequencedEvent[]> {
  const rows = await db.all<{ seq: number; event: string; data: string }>(
    sql`SELECT seq, event, data FROM stream_events
        WHERE stream_id = ${streamId} AND seq > ${afterSeq} ORDER BY seq`,
  );
  return rows.map((r) =>
    ({ seq: Number(r.seq), event: r.event, data: parseJsonColumn(r.data, {}) }) as SequencedEvent
  );
}

/** The highest seq written for a stream (0 when none). */
export async function lastSeq(db: AsyncQueries, streamId: string): Promise<number> {
  const row = await db.get<{ s: number | string | null }>(
    sql`SELECT max(seq) AS s FROM stream_events WHERE stream_id = ${streamId}`,
  );
  return Number(row?.s ?? 0);
}

/**
 * The columns of a StreamRow, named: on PostgreSQL the table also has a `rowid`, which must not
 * leak into the rows handed out.
 */
const STREAM_COLUMNS = sql.raw(
  "stream_id, session_id, turn_id, status, model, model_provider, " +
    "started_at, ended_at, last_seq",
);

/** One run's row (finishStream reads it inside Run.end's transaction, on its handle). */
export async function getStream(db: AsyncQueries, streamId: string): Promise<StreamRow | null> {
  const row = await db.get<StreamRow>(
    sql`SELECT ${STREAM_COLUMNS} FROM streams WHERE stream_id = ${streamId}`,
  );
  return row ? { ...row, last_seq: Number(row.last_seq) } : null;
}

/** Record how a run ended and free its session (if it still holds it). */
export function finishStream(
  db: AsyncQueries,
  clock: Clock,
  streamId: string,
  status: Exclude<StreamStatus, "running">,
): Promise<void> {
  return db.transaction(async (tx) => {
    const row = await getStream(tx, streamId);
    if (!row) return;
    const seq = await lastSeq(tx, streamId);
    await tx.run(
      sql`UPDATE streams SET status = ${status}, ended_at = ${clock()}, last_seq = ${seq}
          WHERE stream_id = ${streamId}`,
    );
    await releaseSession(tx, row.session_id, streamId);
  });
}

/**
 * Close every run left `running` by a process that is gone: rebuild its transcript rows from the
 * journal (journal_recovery.ts), append `apperror` (interrupted) and
 * `stream_end` to its journal, mark it interrupted and free its session. Also clears
 * `active_stream_id` values that point at no running stream. Returns the runs recovered.
 *
 * With one process on the database (SQLite) every running stream at start-up is such a run.
 * With replicas (`expiredBefore`), only those whose owner stopped renewing its lease before
 * that time: the others are alive elsewhere. Each run is claimed by flipping its status first,
 * so two replicas sweeping at once recover it once.
 */
export function recoverInterruptedStreams(
  db: AsyncQueries,
  clock: Clock,
  opts: { expiredBefore?: number; hungBefore?: number } = {},
): Promise<StreamRow[]> {
  return db.transaction(async (tx) => {
    // On a shared database a lapsed lease is not enough while the owner is still connected
    // (replica_liveness.ts): it may only be stalled. Its runs go after `hungBefore`.
    const ownerGone = tx.backend === "postgres" && opts.hungBefore !== undefined
      ? sql` AND (owner_replica IS NULL OR lease_until IS NULL OR lease_until < ${
        Math.floor(opts.hungBefore)
      } OR ${sql.raw(OWNER_GONE)})`
      : sql``;
    const expiredBefore = opts.expiredBefore;
    const candidates = expiredBefore === undefined
      ? await tx.all<StreamRow>(
        sql`SELECT ${STREAM_COLUMNS} FROM streams WHERE status = 'running'`,
      )
      : await tx.all<StreamRow>(
        sql`SELECT ${STREAM_COLUMNS} FROM streams WHERE status = 'running'
            AND (lease_until IS NULL OR lease_until < ${expiredBefore})${ownerGone}`,
      );
    // The claim re-checks what made a run a candidate: on PostgreSQL its owner may renew the
    // lease between the read above and this write, and at READ COMMITTED the UPDATE re-checks
    // only its own WHERE against the newest row. A run whose lease was just renewed is alive.
    const running: StreamRow[] = [];
    for (const s of candidates) {
      const { changes } = expiredBefore === undefined
        ? await tx.run(
          sql`UPDATE streams SET status = 'interrupted'
              WHERE stream_id = ${s.stream_id} AND status = 'running'`,
        )
        : await tx.run(
          sql`UPDATE streams SET status = 'interrupted'
              WHERE stream_id = ${s.stream_id} AND status = 'running'
              AND (lease_until IS NULL OR lease_until < ${expiredBefore})`,
        );
      if (Number(changes) === 1) running.push(s);
    }
    const append = createEventAppender(tx, clock);
    for (const s of running) {
      try {
        // What the client saw may be ahead of the last periodic save of the answer. Its own
        // savepoint: a failed rebuild must not abort the transaction that closes the run.
        await tx.transaction(async (sp) =>
          recoverRunMessages(sp, clock, s, await readEvents(sp, s.stream_id))
        );
      } catch { /* the rebuild is best effort; closing the run is not */ }
      let seq = await lastSeq(tx, s.stream_id);
      await append(s.stream_id, ++seq, {
        event: "apperror",
        data: {
          type: "interrupted",
          message: "The server restarted while this answer was being written",
          hint: "The partial answer was kept. Send the message again (or use Retry) to continue.",
        },
      });
      await append(s.stream_id, ++seq, {
        event: "stream_end",
        data: { session_id: s.session_id },
      });
      await tx.run(
        sql`UPDATE streams SET status = 'interrupted', ended_at = ${clock()}, last_seq = ${seq}
            WHERE stream_id = ${s.stream_id}`,
      );
      await releaseSession(tx, s.session_id, s.stream_id);
    }
    await tx.run(
      sql`UPDATE sessions SET active_stream_id = NULL WHERE active_stream_id IS NOT NULL AND
            active_stream_id NOT IN (SELECT stream_id FROM streams WHERE status = 'running')`,
    );
    // Tool calls that were in flight can never finish now (only the recovered runs' own: a
    // replica's sweep must not touch the runs still alive on others).
    for (const s of running) {
      await tx.run(
        sql`UPDATE tool_calls
            SET status = 'error', result = coalesce(result, 'Interrupted by a server restart')
            WHERE session_id = ${s.session_id}
              AND status IN ('pending', 'awaiting_approval', 'running')`,
      );
    }
    if (expiredBefore === undefined) {
      await tx.run(
        sql`UPDATE tool_calls
            SET status = 'error', result = coalesce(result, 'Interrupted by a server restart')
            WHERE status IN ('pending', 'awaiting_approval', 'running')`,
      );
    }
    return running.map((s) => ({
      ...s,
      last_seq: Number(s.last_seq),
      status: "interrupted" as const,
    }));
  });
}

/** Drop journals of runs that ended more than `maxAgeSeconds` ago (keeps the database small). */
export async function pruneJournal(
  db: AsyncQueries,
  clock: Clock,
  maxAgeSeconds: number,
): Promise<number> {
  const { changes } = await db.run(
    sql`DELETE FROM streams WHERE status != 'running' AND ended_at IS NOT NULL
          AND ended_at < ${clock() - maxAgeSeconds}`,
  );
  return Number(changes);
}
