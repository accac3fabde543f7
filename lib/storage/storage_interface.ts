// The storage interface every concept file reads and writes through (re-exported by db.ts).
// Kept in a file of its own, importing only types, so both implementations can name it without
// an import circle through db.ts, which opens them.
import type { RawBuilder } from "kysely";

/** A value a statement takes or gives back (node:sqlite's own set). */
export type SqlValue = null | number | bigint | string | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

/** What an async write reports: rows changed and, on SQLite, the new rowid of an insert. */
export interface SqlWriteResult {
  changes: number;
  insertId?: number;
}

/** A query written once for both backends: Kysely's `sql` tag (`sql\`… ${value}\``). */
export type SqlQuery = RawBuilder<unknown>;

/**
 * The async storage interface (lib/storage/kysely_queries.ts): every call returns a promise,
 * so a slow database stalls the request that asked and never the server. A transaction is
 * explicit and its body gets the handle to use inside it (`tx`); a nested call is a savepoint.
 * `timeoutMs` lifts the statement timeout for one transaction (an import).
 */
export interface AsyncQueries {
  readonly backend: "sqlite" | "postgres";
  /**
   * The database this handle belongs to: a transaction's is its database, a database's is
   * itself. What per-database state is keyed by (`busOf(handle.owner)`), from inside a
   * transaction too.
   */
  readonly owner: Db;
  all<R = SqlRow>(query: SqlQuery): Promise<R[]>;
  get<R = SqlRow>(query: SqlQuery): Promise<R | undefined>;
  run(query: SqlQuery): Promise<SqlWriteResult>;
  transaction<T>(
    fn: (tx: AsyncQueries) => Promise<T>,
    opts?: { timeoutMs?: number },
  ): Promise<T>;
}

/**
 * The storage interface every concept file reads and writes through: an open database, with the
 * async queries of AsyncQueries. Two implementations: node:sqlite (the embedded default, in
 * process) and PostgreSQL (lib/storage/postgres/, when HERMES_DATABASE_URL is set: a postgres.js
 * pool). `backend` lets the rare statement that cannot be written for both (full-text search)
 * pick its own.
 */
export interface Db extends AsyncQueries {
  readonly backend: "sqlite" | "postgres";
  /**
   * Resolves once the database can be used (PostgreSQL: connected, its schema or cloned
   * database there, migrated); rejects, with a message naming the database, when it cannot.
   * Every query awaits it first: awaiting it is only to fail early (at start-up). SQLite opens
   * synchronously, so its is resolved at once.
   */
  ready(): Promise<void>;
  /** Close it (PostgreSQL: end the pool in the background; later queries are refused). */
  close(): void;
}
