// The run journal: one `streams` row per agent run and every event it emitted, in order, in
// `stream_events`. Invariants: an event is written here BEFORE any listener sees it, so a
// reconnecting client can always replay what it missed; seq numbers start at 1 and have no
// gaps; a session points at most one running stream (`sessions.active_stream_id`), claimed
// atomically; a run found `running` at start-up was cut off and is closed as interrupted.
import { type Db, parseJsonColumn, sql, transaction } from "../storage/db.ts";
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
 * every write to sessions bumps) across event-loop turns, and a synchronous statement of this
 * same process waiting on them would block the thread the transaction needs to commit — a
 * deadlock the database cannot see. So the run is recorded first, then claimed: a session never
 * points at a run that was not recorded, and a lost claim deletes its record again (if the
 * process dies in between, the record's lease lapses and recovery closes it).
 */
export async function claimSession(db: Db, clock: Clock, s: NewStream): Promise<SessionClaim> {
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
  if (claim.ok) publishSessionsChanged(db, "run_start", s.sessionId);
  return claim;
}

/** Insert the run's `streams` row (status running). A session that is gone is a 404. */
async function recordRun(db: Db, clock: Clock, s: NewStream): Promise<void> {
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

async function sessionExists(db: Db, sessionId: string): Promise<boolean> {
  const row = await db.get<{ session_id: string }>(
    sql`SELECT session_id FROM sessions WHERE session_id = ${sessionId}`,
  );
  return row !== undefined;
}

/** The conditional UPDATE, and on a loss the winner's stream, read after the winner's commit. */
async function claimRecordedRun(db: Db, s: NewStream): Promise<SessionClaim> {
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
export async function abandonClaim(db: Db, sessionId: string, streamId: string): Promise<void> {
  const { changes } = await db.run(
    sql`UPDATE sessions SET active_stream_id = NULL
        WHERE session_id = ${sessionId} AND active_stream_id = ${streamId}`,
  );
  await db.run(sql`DELETE FROM streams WHERE stream_id = ${streamId}`);
  if (changes === 1) publishSessionsChanged(db, "run_end", sessionId);
}

/**
 * Clear the session's active run, but only if it is still `streamId` (never a newer one).
 * Synchronous still, like finishStream: both run inside Run.end's and the recovery's
 * transactions, next to the synchronous event appender that keeps a stream's events in order.
 */
export function releaseSession(db: Db, sessionId: string, streamId: string): void {
  db.prepare(
    "UPDATE sessions SET active_stream_id = NULL WHERE session_id = ? AND active_stream_id = ?",
  ).run(sessionId, streamId);
}

/**
 * A prepared appender for one database (hot path: one INSERT per event). On PostgreSQL the same
 * statement also signals `stream_id:seq` on the run channel (lib/replicas/bus.ts), so a replica
 * following the run reads it from the table — the event itself never travels in the signal.
 */
export function createEventAppender(db: Db, clock: Clock) {
  const insert = db.backend === "postgres"
    ? db.prepare(
      `WITH e AS (INSERT INTO stream_events (stream_id, seq, event, data, created_at)
         VALUES (?, ?, ?, ?, ?) RETURNING stream_id, seq)
       SELECT pg_notify('${CHANNELS.run}', stream_id || ':' || seq) FROM e`,
    )
    : db.prepare(
      "INSERT INTO stream_events (stream_id, seq, event, data, created_at) VALUES (?, ?, ?, ?, ?)",
    );
  /** Write one event; returns the JSON of its data (reused by the SSE encoder). */
  return (streamId: string, seq: number, e: ChatEvent): void => {
    insert.run(streamId, seq, e.event, JSON.stringify(e.data), clock());
  };
}

/** Events of a stream with seq > afterSeq, in order. */
export function readEvents(db: Db, streamId: string, afterSeq = 0): SequencedEvent[] {
  const rows = db.prepare(
    "SELECT seq, event, data FROM stream_events WHERE stream_id = ? AND seq > ? ORDER BY seq",
  ).all(streamId, afterSeq) as Array<{ seq: number; event: string; data: string }>;
  return rows.map((r) =>
    ({ seq: r.seq, event: r.event, data: parseJsonColumn(r.data, {}) }) as SequencedEvent
  );
}

/** The highest seq written for a stream (0 when none). */
export function lastSeq(db: Db, streamId: string): number {
  const row = db.prepare("SELECT max(seq) AS s FROM stream_events WHERE stream_id = ?").get(
    streamId,
  ) as { s: number | null };
  return row.s ?? 0;
}

/**
 * The columns of a StreamRow, named: on PostgreSQL the table also has a `rowid`, which must not
 * leak into the rows handed out.
 */
const STREAM_COLUMNS = "stream_id, session_id, turn_id, status, model, model_provider, " +
  "started_at, ended_at, last_seq";

/**
 * One run's row. Synchronous still: finishStream reads it inside Run.end's transaction, which
 * also writes the run's last events through the synchronous appender, and the SSE replay reads
 * it between subscribing and replaying.
 */
export function getStream(db: Db, streamId: string): StreamRow | null {
  return (db.prepare(`SELECT ${STREAM_COLUMNS} FROM streams WHERE stream_id = ?`).get(streamId) as
    | StreamRow
    | undefined) ?? null;
}

/** Record how a run ended and free its session (if it still holds it). */
export function finishStream(
  db: Db,
  clock: Clock,
  streamId: string,
  status: Exclude<StreamStatus, "running">,
): void {
  transaction(db, () => {
    const row = getStream(db, streamId);
    if (!row) return;
    db.prepare(
      "UPDATE streams SET status = ?, ended_at = ?, last_seq = ? WHERE stream_id = ?",
    ).run(status, clock(), lastSeq(db, streamId), streamId);
    releaseSession(db, row.session_id, streamId);
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
  db: Db,
  clock: Clock,
  opts: { expiredBefore?: number; hungBefore?: number } = {},
): StreamRow[] {
  return transaction(db, () => {
    // On a shared database a lapsed lease is not enough while the owner is still connected
    // (replica_liveness.ts): it may only be stalled. Its runs go after `hungBefore`.
    const ownerGone = db.backend === "postgres" && opts.hungBefore !== undefined
      ? ` AND (owner_replica IS NULL OR lease_until IS NULL OR lease_until < ${
        Math.floor(opts.hungBefore)
      } OR ${OWNER_GONE})`
      : "";
    const candidates = (opts.expiredBefore === undefined
      ? db.prepare(`SELECT ${STREAM_COLUMNS} FROM streams WHERE status = 'running'`).all()
      : db.prepare(
        `SELECT ${STREAM_COLUMNS} FROM streams WHERE status = 'running'
         AND (lease_until IS NULL OR lease_until < ?)${ownerGone}`,
      ).all(opts.expiredBefore)) as unknown as StreamRow[];
    // The claim re-checks what made a run a candidate: on PostgreSQL its owner may renew the
    // lease between the read above and this write, and at READ COMMITTED the UPDATE re-checks
    // only its own WHERE against the newest row. A run whose lease was just renewed is alive.
    const claim = opts.expiredBefore === undefined
      ? db.prepare(
        "UPDATE streams SET status = 'interrupted' WHERE stream_id = ? AND status = 'running'",
      )
      : db.prepare(
        `UPDATE streams SET status = 'interrupted' WHERE stream_id = ? AND status = 'running'
         AND (lease_until IS NULL OR lease_until < ?)`,
      );
    const running = candidates.filter((s) => {
      const params = opts.expiredBefore === undefined
        ? [s.stream_id]
        : [s.stream_id, opts.expiredBefore];
      return Number(claim.run(...params).changes) === 1;
    });
    const append = createEventAppender(db, clock);
    for (const s of running) {
      try {
        // What the client saw may be ahead of the last periodic save of the answer. Its own
        // savepoint: a failed rebuild must not abort the transaction that closes the run.
        transaction(db, () =>
          recoverRunMessages(db, clock, s, readEvents(db, s.stream_id)));
      } catch { /* the rebuild is best effort; closing the run is not */ }
      let seq = lastSeq(db, s.stream_id);
      append(s.stream_id, ++seq, {
        event: "apperror",
        data: {
          type: "interrupted",
          message: "The server restarted while this answer was being written",
          hint: "The partial answer was kept. Send the message again (or use Retry) to continue.",
        },
      });
      append(s.stream_id, ++seq, { event: "stream_end", data: { session_id: s.session_id } });
      db.prepare(
        "UPDATE streams SET status = 'interrupted', ended_at = ?, last_seq = ? WHERE stream_id = ?",
      ).run(clock(), seq, s.stream_id);
      releaseSession(db, s.session_id, s.stream_id);
    }
    db.prepare(
      `UPDATE sessions SET active_stream_id = NULL WHERE active_stream_id IS NOT NULL AND
         active_stream_id NOT IN (SELECT stream_id FROM streams WHERE status = 'running')`,
    ).run();
    // Tool calls that were in flight can never finish now (only the recovered runs' own: a
    // replica's sweep must not touch the runs still alive on others).
    const interruptCalls = db.prepare(
      `UPDATE tool_calls SET status = 'error', result = coalesce(result, 'Interrupted by a server restart')
       WHERE session_id = ? AND status IN ('pending', 'awaiting_approval', 'running')`,
    );
    for (const s of running) interruptCalls.run(s.session_id);
    if (opts.expiredBefore === undefined) {
      db.prepare(
        `UPDATE tool_calls SET status = 'error', result = coalesce(result, 'Interrupted by a server restart')
         WHERE status IN ('pending', 'awaiting_approval', 'running')`,
      ).run();
    }
    return running.map((s) => ({ ...s, status: "interrupted" as const }));
  });
}

/** Drop journals of runs that ended more than `maxAgeSeconds` ago (keeps the database small). */
export function pruneJournal(db: Db, clock: Clock, maxAgeSeconds: number): number {
  const res = db.prepare(
    "DELETE FROM streams WHERE status != 'running' AND ended_at IS NOT NULL AND ended_at < ?",
  ).run(clock() - maxAgeSeconds);
  return Number(res.changes);
}
