// The database's own consistency check, on either backend, for the health reports: SQLite's
// `PRAGMA quick_check` / `integrity_check`, and on PostgreSQL amcheck's bt_index_check over
// every B-tree index of the console's tables. Invariant: it answers "ok", the first problem found,
// or `not_applicable: …` when the check cannot be had here (PostgreSQL without amcheck); it only
// throws when the database itself does not answer.
import { type AsyncQueries, sql } from "./db.ts";
import { DatabaseUnavailableError } from "../errors.ts";

/**
 * Check the database: `full` is SQLite's integrity_check (quick_check otherwise; on PostgreSQL
 * both are the same check — each index's order and that every row is in it, one scan per table,
 * as SQLite's checks scan the whole file).
 */
export async function checkIntegrity(db: AsyncQueries, full = false): Promise<string> {
  if (db.backend === "sqlite") {
    const row = await db.get<Record<string, unknown>>(
      full ? sql`PRAGMA integrity_check` : sql`PRAGMA quick_check`,
    );
    return String(Object.values(row ?? {})[0] ?? "");
  }
  const schema = await amcheckSchema(db);
  if (!schema) return "not_applicable: the amcheck extension is not installed in this database";
  try {
    await db.all(
      sql`SELECT ${sql.ref(schema)}.bt_index_check(c.oid, true) FROM pg_index i
          JOIN pg_class c ON c.oid = i.indexrelid
          JOIN pg_am a ON a.oid = c.relam
          WHERE a.amname = 'btree' AND c.relnamespace = current_schema()::regnamespace
            AND c.relpersistence = 'p' AND i.indisvalid AND i.indisready`,
    );
    return "ok";
  } catch (err) {
    // A corrupt index is the check's answer; a database that does not answer is not.
    if (isUnavailable(err)) throw err;
    return (err as Error).message;
  }
}

/** amcheck's schema in this database, installing the extension when the role may. */
async function amcheckSchema(db: AsyncQueries): Promise<string | null> {
  const find = async () =>
    (await db.get<{ schema: string }>(
      sql`SELECT n.nspname AS schema FROM pg_extension e
          JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'amcheck'`,
    ))?.schema;
  const found = await find();
  if (found) return found;
  try {
    await db.run(sql`CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public`);
  } catch (err) {
    if (isUnavailable(err)) throw err;
    // Not installed on the server, or this role may not create it; another connection
    // creating it at the same moment (a unique violation) is found just below.
  }
  return (await find()) ?? null;
}

function isUnavailable(err: unknown): boolean {
  return err instanceof DatabaseUnavailableError;
}
