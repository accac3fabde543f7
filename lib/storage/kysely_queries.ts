// The async half of the storage interface (AsyncQueries in storage_interface.ts), one
// implementation for both backends: SQL is written once with Kysely's `sql` tag (or its query
// builder) and Kysely compiles it for the dialect — placeholders, identifiers, RETURNING.
// Invariants: a transaction is explicit (`db.transaction(async (tx) => …)`) and holds one
// connection for its whole body; a nested one is a SAVEPOINT of the outer; a statement the
// database did not answer in time (PostgreSQL's statement_timeout, a connection that could not
// be had, SQLite busy past its timeout) surfaces as DatabaseUnavailableError, a 503 of that
// request alone.
import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import { DatabaseUnavailableError } from "../errors.ts";
import type { AsyncQueries, Db, SqlRow, SqlWriteResult } from "./storage_interface.ts";

type Backend = "sqlite" | "postgres";
// deno-lint-ignore no-explicit-any
type AnyKysely = Kysely<any> | Transaction<any>;

let savepoints = 0;

export class KyselyQueries implements AsyncQueries {
  constructor(
    /** The database, or the transaction this object runs inside. */
    readonly kysely: AnyKysely,
    readonly backend: Backend,
    /** The database this handle belongs to (AsyncQueries.owner). */
    readonly owner: Db,
    readonly inTransaction = false,
  ) {}

  async all<R = SqlRow>(query: RawBuilder<unknown>): Promise<R[]> {
    return (await this.#execute(query)).rows as R[];
  }

  async get<R = SqlRow>(query: RawBuilder<unknown>): Promise<R | undefined> {
    return (await this.#execute(query)).rows[0] as R | undefined;
  }

  async run(query: RawBuilder<unknown>): Promise<SqlWriteResult> {
    const result = await this.#execute(query);
    return {
      changes: Number(result.numAffectedRows ?? 0n),
      insertId: result.insertId === undefined ? undefined : Number(result.insertId),
    };
  }

  transaction<T>(
    fn: (tx: AsyncQueries) => Promise<T>,
    opts: { timeoutMs?: number } = {},
  ): Promise<T> {
    if (this.inTransaction) return this.#savepoint(fn);
    return translateErrors(() =>
      this.kysely.transaction().execute(async (trx) => {
        if (opts.timeoutMs && this.backend === "postgres") {
          // SET LOCAL ends with the transaction: an import's long budget stays its own.
          await sql`SET LOCAL statement_timeout = ${sql.lit(Math.round(opts.timeoutMs))}`
            .execute(trx);
        }
        return await fn(new KyselyQueries(trx, this.backend, this.owner, true));
      })
    );
  }

  async #savepoint<T>(fn: (tx: AsyncQueries) => Promise<T>): Promise<T> {
    const name = sql.raw(`sp_async_${++savepoints}`);
    await this.#execute(sql`SAVEPOINT ${name}`);
    try {
      const result = await fn(this);
      await this.#execute(sql`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await this.#execute(sql`ROLLBACK TO SAVEPOINT ${name}`);
      await this.#execute(sql`RELEASE SAVEPOINT ${name}`);
      throw err;
    }
  }

  #execute(query: RawBuilder<unknown>) {
    const compiled = query.compile(this.kysely);
    const parameters = this.backend === "postgres"
      ? compiled.parameters.map(pgSafe)
      : compiled.parameters;
    return translateErrors(() =>
      this.kysely.executeQuery<Record<string, unknown>>({ ...compiled, parameters })
    );
  }
}

/**
 * A PostgreSQL text cannot hold U+0000 (SQLite's can): it becomes U+FFFD, so a hostile id still
 * finds nothing and a tool output with a NUL byte is still stored, instead of a server error.
 */
function pgSafe(value: unknown): unknown {
  if (value === undefined) return null;
  return typeof value === "string" && value.includes("\u0000")
    ? value.replaceAll("\u0000", "\uFFFD")
    : value;
}

/** PostgreSQL codes (and SQLite's) that mean "not now", not "wrong". */
const UNAVAILABLE_CODES = new Set([
  "57014", // query_canceled: statement_timeout
  "55P03", // lock_not_available: lock_timeout
  "57P01", // admin_shutdown
  "57P03", // cannot_connect_now
  "08000", // connection_exception
  "08003",
  "08006",
  "08001",
  "08004",
  "CONNECT_TIMEOUT", // postgres.js
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ERR_SQLITE_BUSY",
]);

async function translateErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const code = (err as { code?: string; errcode?: string }).code;
    const busy = /database is locked|SQLITE_BUSY/.test(String((err as Error)?.message));
    if ((code && UNAVAILABLE_CODES.has(code)) || busy) {
      throw new DatabaseUnavailableError(
        `The database did not answer in time (${(err as Error).message})`,
        { cause: err },
      );
    }
    throw err;
  }
}
