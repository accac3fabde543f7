// node:sqlite as Kysely's SqliteDialect expects a database (the shape better-sqlite3 has):
// `prepare(sql)` giving a statement that says whether it returns rows (`reader`) and takes its
// parameters as one array. Invariant: it prepares through the connection's own `prepare`, so
// the bounded statement cache in db.ts serves every query.
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** Kysely's view of one node:sqlite connection. Closing is the owner's (db.ts), not Kysely's. */
export function sqliteForKysely(db: DatabaseSync): SqliteDatabase {
  return {
    close() {},
    prepare(sql: string): SqliteStatement {
      const stmt: StatementSync = db.prepare(sql);
      const params = (values: ReadonlyArray<unknown>) => values as SQLInputValue[];
      return {
        // A statement with result columns is a reader (a SELECT, or a write with RETURNING).
        reader: stmt.columns().length > 0,
        all: (values) => stmt.all(...params(values)),
        run: (values) => stmt.run(...params(values)),
        iterate: (values) => stmt.iterate(...params(values)) as IterableIterator<unknown>,
      };
    },
  };
}
