// The run journal: one `streams` row per agent run and every event it emitted, in order, in
// `stream_events`. Invariants: an event is written here BEFORE any listener sees it, so a
// reconnecting client can always replay what it missed; seq numbers start at 1 and have no
// gaps; a session points at most one running stream (`sessions.active_stream_id`), claimed
// atomically; a run found `running` at start-up was cut off and is closed as interrupted.
import { type Db, parseJsonColumn, transaction } from "../storage/db.ts";
import type { ChatEvent, SequencedEvent } from "../shared/chat_events.ts";
import type { Clock } from "../ids.ts";
import { claimActiveStream } from "../sessions/sessions.ts";
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

/**
 * Atomically make `streamId` the session's active run and record it as running. Returns
 * null on success, or the id of the run that already holds the session (the caller answers
 * 409). An unknown session returns undefined.
 */
export function claimSession(
  db: Db,
  clock: Clock,
  s: NewStream,
): { conflict: string } | { conflict: null } | undefined {
  return transaction(db, () => {
    const row = db.prepare("SELECT active_stream_id FROM sessions WHERE session_id = ?").get(
      s.sessionId,
    ) as { active_stream_id: string | null } | undefined;
    if (!row) return undefined;
    if (row.active_stream_id || !claimActiveStream(db, s.sessionId, s.streamId)) {
      return { conflict: row.active_stream_id ?? "" };
    }
    db.prepare(
      `INSERT INTO streams (stream_id, session_id, turn_id, status, model, model_provider, started_at,
         owner_replica, lease_until)
       VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
    ).run(
      s.streamId,
      s.sessionId,
      s.turnId,
      s.model ?? null,
      s.modelProvider ?? null,
      clock(),
      s.ownerReplica ?? null,
      s.leaseUntil ?? null,
    );
    return { conflict: null };
  });
}

/** Clear the session's active run, but only if it is still `streamId` (never a newer one). */
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

export function getStream(db: Db, streamId: string): StreamRow | null {
  return (db.prepare("SELECT * FROM streams WHERE stream_id = ?").get(streamId) as
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
      ? db.prepare("SELECT * FROM streams WHERE status = 'running'").all()
      : db.prepare(
        `SELECT * FROM streams WHERE status = 'running'
         AND (lease_until IS NULL OR lease_until < ?)${ownerGone}`,
      ).all(opts.expiredBefore)) as unknown as StreamRow[];
    const claim = db.prepare(
      "UPDATE streams SET status = 'interrupted' WHERE stream_id = ? AND status = 'running'",
    );
    const running = candidates.filter((s) =>
      Number(claim.run(s.stream_id).changes) === 1
    );
    const append = createEventAppender(db, clock);
    for (const s of running) {
      try {
        // What the client saw may be ahead of the last periodic save of the answer. Its own
        // savepoint: a failed rebuild must not abort the transaction that closes the run.
        transaction(db, () => recoverRunMessages(db, clock, s, readEvents(db, s.stream_id)));
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
