// The storage interface every concept file reads and writes through (re-exported by db.ts).
// Kept in a file of its own, importing only types, so both implementations can name it without
// an import circle through db.ts, which opens them.
import type { RawBuilder } from "kysely";

/** A value a statement takes or gives back (node:sqlite's own set). */
export type SqlValue = null | number | bigint | string | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

/** What a write reports: rows changed and, for an insert into a rowid table, its new id. */
export interface SqlRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

/** One prepared statement: positional `?` parameters, synchronous like node:sqlite's. */
export interface SqlStatement {
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
  run(...params: SqlValue[]): SqlRunResult;
}

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
  all<R = SqlRow>(query: SqlQuery): Promise<R[]>;
  get<R = SqlRow>(query: SqlQuery): Promise<R | undefined>;
  run(query: SqlQuery): Promise<SqlWriteResult>;
  transaction<T>(
    fn: (tx: AsyncQueries) => Promise<T>,
    opts?: { timeoutMs?: number },
  ): Promise<T>;
}

/**
 * The storage interface every concept file reads and writes through. The async half
 * (AsyncQueries) is the one to write new code against; the synchronous half (`prepare`, `exec`:
 * SQL text in SQLite's dialect) is what the concept files not yet moved still use. Two implementations: node:sqlite (the embedded default) and
 * PostgreSQL (lib/storage/postgres/, when HERMES_DATABASE_URL is set), which translates the few
 * dialect differences and answers synchronously through a worker. `backend` lets the rare
 * statement that cannot be written for both (full-text search) pick its own.
 */
export interface Db extends AsyncQueries {
  readonly backend: "sqlite" | "postgres";
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}
