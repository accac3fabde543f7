// The PostgreSQL implementation of the storage interface (Db in lib/storage/db.ts), used when
// HERMES_DATABASE_URL is set. Invariants: every statement runs asynchronously on a postgres.js
// pool (`HERMES_DATABASE_POOL` connections, each statement bounded by the statement timeout), so
// a slow database stalls the request that asked and never the process; SQL is written once for
// both backends (Kysely's `sql` tag, lib/storage/kysely_queries.ts). Opening is synchronous and
// cheap: the preparation — a cloned database or a schema of its own, then the migrations — starts
// in the constructor and every query awaits it first (`ready()`), so a database that cannot be
// opened fails each use with the same clear message, and start-up fails on it (main.ts).
import { createHash } from "node:crypto";
import postgres from "postgres";
import { Kysely } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import { KyselyQueries } from "../kysely_queries.ts";
import { numberTypes } from "./pg_types.ts";
import { migratePostgres } from "./pg_migrations.ts";
import { DatabaseUnavailableError } from "../../errors.ts";
import type { AsyncQueries, Db, SqlQuery, SqlRow, SqlWriteResult } from "../storage_interface.ts";

export interface PgOpenOptions {
  /** Schema to keep the tables in (created if missing); null = the connection's default. */
  schema: string | null;
  /** Drop the schema (or the cloned database) on close, as ":memory:" is gone on SQLite. */
  dropOnClose?: boolean;
  /**
   * Connect to a database of its own, first created as a copy of `template` (already migrated)
   * through `adminUrl`'s database, unless it exists. Dropped on close with `dropOnClose`.
   */
  clone?: { adminUrl: string; database: string; template: string };
  /** Bring the schema up to date while preparing (lib/storage/postgres/pg_migrations.ts). */
  migrate?: boolean;
  /** The connection pool: its size and each statement's time bound. */
  pool?: { size: number; statementTimeoutMs: number };
}

/**
 * Where a database at `path` lives on the server at `url` when `isolate`
 * (HERMES_DATABASE_ISOLATE=1, the test suite's PostgreSQL lane): one per state path, so a
 * restarted server (or a second replica) finds its data, and a fresh one for ":memory:". With a
 * migrated `template` database (HERMES_DATABASE_TEMPLATE) each is a database cloned from it —
 * the migrations ran once for the whole run; without one, a schema of the URL's database,
 * migrated when opened. Not isolated: the URL's database and the connection's default schema.
 */
export function isolationFor(
  url: string,
  path: string,
  isolate: boolean,
  template: string | null,
): { url: string; opts: PgOpenOptions } {
  if (!isolate || !template) return { url, opts: schemaForPath(path, isolate) };
  const key = path === ":memory:"
    ? `m${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`
    : `h${createHash("sha256").update(path).digest("hex").slice(0, 24)}`;
  const database = `${template}_${key}`;
  const target = new URL(url);
  target.pathname = `/${database}`;
  return {
    url: target.toString(),
    opts: {
      schema: null,
      dropOnClose: path === ":memory:",
      clone: { adminUrl: url, database, template },
    },
  };
}

/** The schema a database at `path` lives in when isolated without a template database. */
export function schemaForPath(
  path: string,
  isolate: boolean,
): { schema: string | null; dropOnClose: boolean } {
  if (!isolate) return { schema: null, dropOnClose: false };
  if (path === ":memory:") {
    return { schema: `m_${crypto.randomUUID().replaceAll("-", "")}`, dropOnClose: true };
  }
  return {
    schema: `h_${createHash("sha256").update(path).digest("hex").slice(0, 24)}`,
    dropOnClose: false,
  };
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "HERMES_DATABASE_URL";
  }
}

interface Listener {
  onNotify: (payload: string) => void;
  onListening: () => void;
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** How long close() lets a pool connection finish its statement before cutting it. */
const END_TIMEOUT_S = 5;

/** postgres.js codes (and SQLSTATEs) that mean the server could not be reached or refused us. */
const CONNECT_FAILURES = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P03", // cannot_connect_now
  "08000",
  "08001",
  "08006",
]);

export class PgDatabase implements Db {
  readonly backend = "postgres" as const;
  readonly #url: string;
  readonly #opts: PgOpenOptions;
  readonly #pool: postgres.Sql;
  /** The pool's connection options, for the connections opened beside it. */
  readonly #connection: Record<string, string | number>;
  readonly #queries: KyselyQueries;
  readonly #ready: Promise<void>;
  /** The connection of its own for session-level state (sessionConnection()), once asked for. */
  #session: postgres.Sql | null = null;
  #closed = false;
  #closing: Promise<void> | null = null;
  #listeners = new Map<string, Set<Listener>>();

  constructor(url: string, opts: PgOpenOptions) {
    this.#url = url;
    this.#opts = opts;
    const pool = opts.pool ?? { size: 10, statementTimeoutMs: 5000 };
    this.#connection = {
      statement_timeout: pool.statementTimeoutMs,
      // A transaction left open (its process stalled) gives its locks back after a while.
      idle_in_transaction_session_timeout: Math.max(60_000, pool.statementTimeoutMs * 4),
      ...(opts.schema ? { search_path: opts.schema } : {}),
    };
    this.#pool = postgres(url, {
      max: pool.size,
      onnotice: () => {},
      types: numberTypes,
      // fetch_types stays on: postgres.js 3.4 never hands a reserved connection (each Kysely
      // query reserves one) that opened without that first query to its waiter.
      //
      // A database that does not take the connection fails the request, not the server.
      connect_timeout: Math.max(2, Math.ceil(pool.statementTimeoutMs / 1000)),
      // Idle connections go back after a while: an open pool must not keep a tool alive.
      idle_timeout: 20,
      connection: this.#connection,
    });
    this.#queries = new KyselyQueries(
      new Kysely({ dialect: new PostgresJSDialect({ postgres: this.#pool }) }),
      "postgres",
      this,
    );
    this.#ready = this.#prepare();
    // A failure is told to each caller (and to ready()), never as an unhandled rejection.
    this.#ready.catch(() => {});
  }

  get owner(): Db {
    return this;
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  /** The clone or the schema, then the migrations: once, before any statement. */
  async #prepare(): Promise<void> {
    const where = redactUrl(this.#url);
    try {
      if (this.#opts.clone) await createClone(this.#opts.clone);
      // The first statement also proves the URL: a refused connection or a wrong password is
      // said as such, not as a failed migration.
      if (this.#opts.schema) await createSchema(this.#pool, this.#opts.schema);
      else await this.#pool.unsafe("SELECT 1");
    } catch (err) {
      throw openError(`Could not open the PostgreSQL database at ${where}`, err);
    }
    if (!this.#opts.migrate) return;
    try {
      await migratePostgres(this.#pool);
    } catch (err) {
      throw openError(`Could not migrate the PostgreSQL database at ${where}`, err);
    }
  }

  async all<R = SqlRow>(query: SqlQuery): Promise<R[]> {
    await this.#usable();
    return await this.#queries.all<R>(query);
  }

  async get<R = SqlRow>(query: SqlQuery): Promise<R | undefined> {
    await this.#usable();
    return await this.#queries.get<R>(query);
  }

  async run(query: SqlQuery): Promise<SqlWriteResult> {
    await this.#usable();
    return await this.#queries.run(query);
  }

  async transaction<T>(
    fn: (tx: AsyncQueries) => Promise<T>,
    opts?: { timeoutMs?: number },
  ): Promise<T> {
    await this.#usable();
    return await this.#queries.transaction(fn, opts);
  }

  /**
   * Wait for the preparation; refuse once closed (an ended pool would never hand out a
   * connection: the caller would wait forever).
   */
  async #usable(): Promise<void> {
    if (this.#closed) throw new DatabaseUnavailableError("The database is closed");
    await this.#ready;
    if (this.#closed) throw new DatabaseUnavailableError("The database is closed");
  }

  /** Bring the schema up to date now (a database opened without `migrate`: a template). */
  async migrate(): Promise<void> {
    await this.#usable();
    await migratePostgres(this.#pool);
  }

  /**
   * A connection of its own, outside the pool, for session-level state that must outlive one
   * statement — the replica liveness lock (lib/replicas/replica_liveness.ts). It never idles
   * out nor retires; when it is lost (the server restarted, the network cut), the next
   * statement on it opens a new one, which starts without the old one's session state.
   */
  async sessionConnection(): Promise<postgres.Sql> {
    await this.#usable();
    this.#session ??= postgres(this.#url, {
      max: 1,
      onnotice: () => {},
      types: numberTypes,
      fetch_types: false,
      connect_timeout: this.#pool.options.connect_timeout ?? 10,
      idle_timeout: null as unknown as number,
      max_lifetime: null,
      connection: this.#connection,
    });
    return this.#session;
  }

  /**
   * Hear NOTIFY on `channel` (on the pool's listening connection, which postgres.js re-opens and
   * re-listens on after a loss). `onListening` runs each time listening (re)starts: what was sent
   * while it was away is lost, so the caller re-reads its tables then.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListening: () => void = () => {},
  ): () => void {
    let entry = this.#listeners.get(channel);
    if (!entry) {
      const set: Set<Listener> = entry = new Set();
      this.#listeners.set(channel, set);
      const each = (what: string, fn: (listener: Listener) => void) => {
        for (const listener of [...set]) {
          try {
            fn(listener);
          } catch (err) {
            console.error(`a NOTIFY listener on ${channel} failed (${what}): ${err}`);
          }
        }
      };
      this.#ready
        .then(() =>
          this.#pool.listen(
            channel,
            (payload) => each("signal", (pair) => pair.onNotify(payload)),
            () => each("resync", (pair) => pair.onListening()),
          )
        )
        .catch((err) => {
          if (!this.#closed) console.error(`could not LISTEN on ${channel}: ${err}`);
        });
    }
    const pair = { onNotify, onListening };
    entry.add(pair);
    return () => void entry!.delete(pair);
  }

  /**
   * End the pool (and the listening and session connections): each connection may finish its
   * statement for a few seconds first; a throwaway schema or cloned database is dropped once the
   * pool is gone. Nobody has to wait (Db.close() returns nothing): the promise, which never
   * rejects, is for the rare caller that must know the connections are gone (a template
   * database is cloned only once nobody is connected to it).
   */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    const session = this.#session;
    this.#session = null;
    // After the preparation settles: a schema created after its DROP would be left behind.
    this.#closing = this.#ready.catch(() => {}).then(async () => {
      await Promise.all([
        this.#pool.end({ timeout: END_TIMEOUT_S }).catch(() => {}),
        session?.end({ timeout: END_TIMEOUT_S }).catch(() => {}),
      ]);
      if (!this.#opts.dropOnClose) return;
      if (this.#opts.clone) {
        await onShortConnection(
          this.#opts.clone.adminUrl,
          `DROP DATABASE IF EXISTS ${quoteName(this.#opts.clone.database)} WITH (FORCE)`,
        );
      } else if (this.#opts.schema) {
        await onShortConnection(
          this.#url,
          `DROP SCHEMA IF EXISTS ${quoteName(this.#opts.schema)} CASCADE`,
        );
      }
    }).catch(() => {});
    return this.#closing;
  }
}

/** An error opening the database, naming it; a connection failure is a 503 to a request. */
function openError(what: string, err: unknown): Error {
  const message = `${what}: ${(err as Error)?.message ?? String(err)}`;
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  return code && CONNECT_FAILURES.has(code)
    ? new DatabaseUnavailableError(message, { cause: err })
    : new Error(message, { cause: err });
}

/** Run `text` (no parameters) on a connection of its own to `url`, then close it. */
async function onShortConnection(url: string, text: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {}, fetch_types: false });
  try {
    await client.unsafe(text);
  } finally {
    await client.end({ timeout: 2 }).catch(() => {});
  }
}

/** Create the clone from its template unless it exists (a restart, a second replica). */
async function createClone(c: { adminUrl: string; database: string; template: string }) {
  try {
    await onShortConnection(
      c.adminUrl,
      `CREATE DATABASE ${quoteName(c.database)} TEMPLATE ${quoteName(c.template)}`,
    );
  } catch (err) {
    const code = (err as { code?: string }).code;
    // duplicate_database, or the same name created by a concurrent CREATE DATABASE.
    if (code !== "42P04" && code !== "23505") {
      throw new Error(`could not clone ${c.template}: ${(err as Error).message}`, { cause: err });
    }
  }
}

/** The isolated schema, unless it exists (two openers at once may both try). */
async function createSchema(pool: postgres.Sql, schema: string): Promise<void> {
  try {
    await pool.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quoteName(schema)}`);
  } catch (err) {
    // unique_violation / duplicate_schema: a concurrent CREATE SCHEMA won the race.
    const code = (err as { code?: string }).code;
    if (code !== "23505" && code !== "42P06") throw err;
  }
}
