// Running the schema history (lib/storage/migrations.ts) on PostgreSQL, keyed by the one row of
// hermes_schema_version. Invariants: all pending steps run in one transaction under an advisory
// lock, so replicas starting together migrate once and a crash mid-migration leaves the old
// version; the version stored is the history's own number (the same as SQLite's user_version).
import type { Db } from "../storage_interface.ts";
import { MIGRATIONS } from "../migrations.ts";

/**
 * PostgreSQL support began with a history of its own: version 1 was the schema as of step 16,
 * version 2 step 17. Such a database is read as the step it holds (a version of the shared
 * history is 0 or at least 16 on PostgreSQL, so 1 and 2 cannot mean anything else).
 */
function sharedVersion(stored: number): number {
  return stored === 1 ? 16 : stored === 2 ? 17 : stored;
}

/**
 * Key of the transaction-scoped advisory lock migrations run under ("HERMES" in ASCII): a
 * second replica starting at the same moment waits, then finds the schema current.
 */
const MIGRATION_LOCK = 0x4845524d4553;

/** Bring the PostgreSQL schema up to date (see the file header for the invariants). */
export function migratePostgres(db: Db): void {
  db.exec("BEGIN");
  try {
    // The lock comes first: two concurrent CREATE TABLE IF NOT EXISTS can still collide.
    db.exec(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    db.exec("CREATE TABLE IF NOT EXISTS hermes_schema_version (version integer NOT NULL)");
    const row = db.prepare("SELECT version FROM hermes_schema_version").get();
    if (!row) db.exec("INSERT INTO hermes_schema_version VALUES (0)");
    const from = sharedVersion(Number(row?.version ?? 0));
    for (let v = from; v < MIGRATIONS.length; v++) {
      const step = MIGRATIONS[v].postgres;
      if (step !== null) db.exec(step);
    }
    db.exec(`UPDATE hermes_schema_version SET version = ${MIGRATIONS.length}`);
    db.exec("COMMIT");
  } catch (err) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // The connection is gone with the transaction; the migration's own error says more.
    }
    throw err;
  }
}
