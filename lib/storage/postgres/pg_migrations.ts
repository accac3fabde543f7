// Running the schema history (lib/storage/migrations.ts) on PostgreSQL, keyed by the one row of
// hermes_schema_version. Invariants: all pending steps run in one transaction under an advisory
// lock, so replicas starting together migrate once and a crash mid-migration leaves the old
// version; the version stored is the history's own number (the same as SQLite's user_version).
// Run asynchronously once, by PgDatabase's preparation (pg_database.ts), on its pool.
import type postgres from "postgres";
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

/**
 * Bring the PostgreSQL schema on `pool`'s connections up to date (see the file header for the
 * invariants). A step's text may hold several statements: each runs without parameters, which
 * postgres.js sends as a simple query.
 */
export async function migratePostgres(pool: postgres.Sql): Promise<void> {
  await pool.begin(async (tx) => {
    // A long migration (a big table) is not cut by the pool's statement timeout; SET LOCAL ends
    // with this transaction.
    await tx.unsafe("SET LOCAL statement_timeout = 0");
    // The lock comes first: two concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.unsafe("CREATE TABLE IF NOT EXISTS hermes_schema_version (version integer NOT NULL)");
    const [row] = await tx.unsafe("SELECT version FROM hermes_schema_version");
    if (!row) await tx.unsafe("INSERT INTO hermes_schema_version VALUES (0)");
    const from = sharedVersion(Number(row?.version ?? 0));
    for (let v = from; v < MIGRATIONS.length; v++) {
      const step = MIGRATIONS[v].postgres;
      if (step !== null) await tx.unsafe(step);
    }
    if (from !== MIGRATIONS.length) {
      await tx.unsafe(`UPDATE hermes_schema_version SET version = ${MIGRATIONS.length}`);
    }
  });
}
