// The storage interface every concept file reads and writes through (re-exported by db.ts).
// Kept in a file of its own, importing nothing, so both implementations can name it without
// an import circle through db.ts, which opens them.

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

/**
 * The storage interface every concept file reads and writes through: SQL text in SQLite's
 * dialect, synchronous statements. Two implementations: node:sqlite (the embedded default) and
 * PostgreSQL (lib/storage/postgres/, when HERMES_DATABASE_URL is set), which translates the few
 * dialect differences and answers synchronously through a worker. `backend` lets the rare
 * statement that cannot be written for both (full-text search) pick its own.
 */
export interface Db {
  readonly backend: "sqlite" | "postgres";
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}
