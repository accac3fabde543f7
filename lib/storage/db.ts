// Opening the database: the embedded SQLite file (node:sqlite, built into Deno) — its pragmas and
// its ordered migrations keyed by PRAGMA user_version, run synchronously at open — or, with
// HERMES_DATABASE_URL set, PostgreSQL (lib/storage/postgres/pg_database.ts). Every query goes
// through the async interface (Db / AsyncQueries, storage_interface.ts). Invariants: WAL
// journaling, foreign keys on, a busy timeout; migrations only ever append; each runs in a
// transaction together with its user_version bump, so a crash mid-migration leaves the old
// version.
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { join } from "node:path";
import { isolationFor, PgDatabase, redactUrl } from "./postgres/pg_database.ts";
import { databaseEnv } from "../settings/config.ts";
import { Kysely, SqliteDialect } from "kysely";
import { KyselyQueries } from "./kysely_queries.ts";
import { sqliteForKysely } from "./sqlite_kysely_adapter.ts";

export type {
  AsyncQueries,
  Db,
  SqlQuery,
  SqlRow,
  SqlValue,
  SqlWriteResult,
} from "./storage_interface.ts";
export { sql } from "kysely";
import type { AsyncQueries, Db, SqlQuery, SqlRow, SqlWriteResult } from "./storage_interface.ts";

export { MIGRATIONS } from "./migrations.ts";
import { MIGRATIONS } from "./migrations.ts";

/** Open (creating if needed) the database file in `stateDir` and bring it up to date. */
export function openDatabase(stateDir: string): Db {
  Deno.mkdirSync(stateDir, { recursive: true });
  return openDatabaseAt(join(stateDir, "hermes.db"));
}

/**
 * Open a database at an explicit path (":memory:" works too) and migrate it. With
 * HERMES_DATABASE_URL=postgres://… set, PostgreSQL holds the tables instead (the path then only
 * picks a schema when HERMES_DATABASE_ISOLATE=1, see lib/storage/postgres/pg_database.ts).
 */
export function openDatabaseAt(path: string): Db {
  const { url, isolate, template, poolSize, statementTimeoutMs } = databaseEnv();
  if (url) {
    try {
      const where = isolationFor(url, path, isolate, template);
      // Connecting, isolating and migrating run in the background; every query (and ready())
      // waits for them, and fails with their error.
      return new PgDatabase(where.url, {
        ...where.opts,
        migrate: true,
        pool: { size: poolSize, statementTimeoutMs },
      });
    } catch (err) {
      throw new Error(
        `Could not open the PostgreSQL database at ${redactUrl(url)}: ${(err as Error).message}`,
      );
    }
  }
  const db = new DatabaseSync(path);
  cacheStatements(db);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  // After a checkpoint the WAL file is cut back to this size instead of keeping its peak (a bulk
  // import once grew it for good).
  db.exec("PRAGMA journal_size_limit = 16777216");
  migrate(db);
  return new SqliteDb(db);
}

/**
 * The embedded database: node:sqlite in this process. Its calls are fast and synchronous
 * underneath; the async interface queues them through Kysely's driver, whose one-connection
 * mutex keeps a transaction's statements together (another caller waits for it). Invariant: a
 * transaction body awaits only its own queries (through `tx`), never other I/O, and never `db`
 * (it would wait for the transaction that waits for it).
 */
class SqliteDb implements Db {
  readonly backend = "sqlite" as const;
  readonly #db: DatabaseSync;
  readonly #async: KyselyQueries;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#async = new KyselyQueries(
      new Kysely({ dialect: new SqliteDialect({ database: sqliteForKysely(db) }) }),
      "sqlite",
      this,
    );
  }

  get owner(): Db {
    return this;
  }

  /** Opened and migrated synchronously by openDatabaseAt(): ready at once. */
  ready(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  all<R = SqlRow>(query: SqlQuery): Promise<R[]> {
    return this.#async.all<R>(query);
  }

  get<R = SqlRow>(query: SqlQuery): Promise<R | undefined> {
    return this.#async.get<R>(query);
  }

  run(query: SqlQuery): Promise<SqlWriteResult> {
    return this.#async.run(query);
  }

  transaction<T>(
    fn: (tx: AsyncQueries) => Promise<T>,
    opts?: { timeoutMs?: number },
  ): Promise<T> {
    return this.#async.transaction(fn, opts);
  }
}

/** Prepared statements kept per database (most recently used first out of the LRU's tail). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Make `db.prepare(sql)` reuse one compiled statement per SQL text (a bounded LRU). Kysely's
 * driver (sqlite_kysely_adapter.ts) prepares at every query; each fresh statement holds native memory that V8 cannot see, so
 * under load thousands of dead ones waited for a GC that had no reason to come (+100 MB at
 * 10,000 imports). Statements are synchronous, so sharing one between callers is safe; the
 * one per-statement mode we use (return arrays) is reset on every hand-out.
 */
function cacheStatements(db: DatabaseSync): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, StatementSync>();
  db.prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
      (stmt as { setReturnArrays?: (on: boolean) => void }).setReturnArrays?.(false);
    } else {
      stmt = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, stmt);
    return stmt;
  };
}

/**
 * Bring the file up to date, synchronously at open (in process: nothing else can run yet). Each
 * step runs in a transaction together with its user_version bump.
 */
function migrate(db: DatabaseSync): void {
  const { user_version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
  for (let v = user_version; v < MIGRATIONS.length; v++) {
    db.exec("BEGIN");
    try {
      db.exec(MIGRATIONS[v].sqlite);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec("COMMIT");
    } catch (err) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw err;
    }
  }
}

/** Parse a JSON column, tolerating NULL. */
export function parseJsonColumn<T>(value: unknown, fallback: T): T {
  if (typeof value !== "string" || value === "") return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}
