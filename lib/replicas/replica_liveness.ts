// Whether the replica that owns a run is still there, as PostgreSQL sees it. A lease says only
// that the owner renewed lately; an owner whose event loop stalls longer than a lease (a loaded
// machine, a slow disk, a long synchronous statement) would lose its runs to another replica's
// sweep while it is still writing them — the run is marked interrupted under it and its next
// journal write collides with the recovery's. So each replica also holds a session-level
// advisory lock named after itself on a connection of its own (PgDatabase.sessionConnection():
// the pool's connections come and go, a session lock must stay on one): a process that dies (or
// is cut off) loses its connection and with it the lock, at once; a process that only stalls
// keeps both.
// A sweep takes a run over when its lease lapsed AND its owner's lock is free, or when the lease
// lapsed long ago (`hungSeconds`): an owner that is connected but renews nothing for that long is
// hung, and its runs are recovered all the same.
import type { Db } from "../storage/db.ts";
import { PgDatabase } from "../storage/postgres/pg_database.ts";

/** The first key of every liveness lock (the second is the replica id's hash). "HL". */
const LIVENESS_LOCK_SPACE = 0x484c;

/**
 * Take this replica's liveness lock on its liveness connection (PostgreSQL only), if that
 * connection does not hold it already: called at start and with every renewal, since a lost
 * connection is replaced by a new one that starts without it. Never waits: another holder (an
 * id collision) leaves the lease alone to speak for this replica.
 */
export async function holdLivenessLock(db: Db, replicaId: string): Promise<void> {
  if (!(db instanceof PgDatabase)) return;
  const session = await db.sessionConnection();
  await session`SELECT pg_try_advisory_lock(${LIVENESS_LOCK_SPACE}, hashtext(${replicaId})) AS held
     WHERE NOT EXISTS (SELECT 1 FROM pg_locks WHERE pid = pg_backend_pid()
       AND locktype = 'advisory' AND granted AND classid = ${LIVENESS_LOCK_SPACE}
       AND objid = CAST(hashtext(${replicaId}) AS oid) AND objsubid = 2)`;
}

/**
 * SQL condition on a `streams` row (PostgreSQL; trusted text): its owner's process is gone — no
 * session of this database holds the owner's liveness lock.
 */
export const OWNER_GONE = `NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'
  AND l.granted AND l.classid = ${LIVENESS_LOCK_SPACE} AND l.objsubid = 2
  AND l.objid = CAST(hashtext(streams.owner_replica) AS oid)
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;
