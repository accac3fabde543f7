// The PostgreSQL implementation of the storage interface (Db in lib/storage/db.ts), used when
// HERMES_DATABASE_URL is set. Invariants: statements are synchronous like node:sqlite's — the
// main thread hands each one to the worker that owns the connection (pg_worker.ts) and waits on
// a shared word (Atomics.wait), so the concept files' transactions and read-modify-writes keep
// the meaning they have on SQLite; SQL arrives in SQLite's dialect and is translated once per
// text (sql_dialect.ts); a transaction's outermost SAVEPOINT opens it with BEGIN and its release
// commits, because PostgreSQL has no savepoint outside a transaction block.
import { deserialize, serialize } from "node:v8";
import { Worker } from "node:worker_threads";
import { createHash } from "node:crypto";
import type { Db, SqlRow, SqlRunResult, SqlStatement, SqlValue } from "../storage_interface.ts";
import {
  HEADER_BYTES,
  LENGTH,
  STATE,
  type WorkerAnswer,
  type WorkerRequest,
} from "./pg_protocol.ts";
import { translateSql } from "./sql_dialect.ts";
import { appUrl } from "../../server/app_paths.ts";
import postgres from "postgres";
import { Kysely } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import { KyselyQueries } from "../kysely_queries.ts";
import { numberTypes } from "./pg_types.ts";
import type { AsyncQueries, SqlQuery, SqlWriteResult } from "../storage_interface.ts";

/** How long one statement may take before the caller gets an error instead of a hang. */
const STATEMENT_WAIT_MS = 120_000;
const INITIAL_BUFFER = 1 << 20;
const MAX_BUFFER = 1 << 30;

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
  /** The async half's connection pool: its size and each statement's time bound. */
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

export class PgDatabase implements Db {
  readonly backend = "postgres" as const;
  #worker: Worker;
  #shared: SharedArrayBuffer;
  /** The number of the last request sent to the worker. */
  #seq = 0;
  #words: Int32Array;
  #statements = new Map<string, PgStatement>();
  /** Open savepoints, outermost first: the first one began the transaction. */
  #savepoints: string[] = [];
  #closed = false;
  #opts: PgOpenOptions;
  /** The async half: a pool of its own, no worker, no waiting thread. */
  #pool: postgres.Sql;
  #async: KyselyQueries;

  constructor(url: string, opts: PgOpenOptions) {
    this.#opts = opts;
    this.#shared = new SharedArrayBuffer(INITIAL_BUFFER, { maxByteLength: MAX_BUFFER });
    this.#words = new Int32Array(this.#shared, 0, 4);
    // Through appUrl: in a bundle or a compiled binary the worker sits at its source path.
    this.#worker = new Worker(appUrl("lib/storage/postgres/pg_worker.ts"));
    // An open database must not keep the process alive (a web Worker would: a test or a tool
    // that forgets close() would never exit). Answers arrive through the shared buffer anyway.
    this.#worker.unref();
    this.#worker.on("message", this.#onWorkerMessage);
    const ready = this.#await((seq) =>
      this.#worker.postMessage({
        init: { url, schema: opts.schema, clone: opts.clone ?? null, buffer: this.#shared, seq },
      })
    );
    if (!ready.ok) {
      this.#worker.terminate();
      throw new Error(ready.message);
    }
    if (opts.schema) {
      this.#call({ kind: "exec", text: `CREATE SCHEMA IF NOT EXISTS ${opts.schema}` });
    }
    const pool = opts.pool ?? { size: 10, statementTimeoutMs: 5000 };
    this.#pool = postgres(url, {
      max: pool.size,
      onnotice: () => {},
      types: numberTypes,
      // A database that does not take the connection fails the request, not the server.
      connect_timeout: Math.max(2, Math.ceil(pool.statementTimeoutMs / 1000)),
      // Idle connections go back after a while: an open pool must not keep a tool alive.
      idle_timeout: 20,
      connection: {
        statement_timeout: pool.statementTimeoutMs,
        // A transaction left open (its process stalled) gives its locks back after a while.
        idle_in_transaction_session_timeout: Math.max(60_000, pool.statementTimeoutMs * 4),
        ...(opts.schema ? { search_path: opts.schema } : {}),
      },
    });
    this.#async = new KyselyQueries(
      new Kysely({ dialect: new PostgresJSDialect({ postgres: this.#pool }) }),
      "postgres",
    );
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

  exec(sql: string): void {
    const text = sql.trim();
    const savepoint = /^SAVEPOINT\s+(\w+)$/i.exec(text);
    const release = /^RELEASE\s+(?:SAVEPOINT\s+)?(\w+)$/i.exec(text);
    if (savepoint) {
      if (this.#savepoints.length === 0) this.#call({ kind: "exec", text: "BEGIN" });
      this.#savepoints.push(savepoint[1]);
      this.#call({ kind: "exec", text });
      return;
    }
    if (release && this.#savepoints[0] === release[1]) {
      this.#savepoints = [];
      this.#call({ kind: "exec", text: "COMMIT" });
      return;
    }
    if (release) {
      this.#savepoints.splice(this.#savepoints.indexOf(release[1]));
    }
    if (/^PRAGMA\b/i.test(text)) return void this.prepare(text).all();
    this.#call({ kind: "exec", text: translateSql(text).text });
  }

  /**
   * Hear NOTIFY on `channel`. `onListening` runs each time the listening connection (re)starts:
   * what was sent while it was away is lost, so the caller re-reads its tables then.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListening: () => void = () => {},
  ): () => void {
    let entry = this.#listeners.get(channel);
    if (!entry) {
      entry = new Set();
      this.#listeners.set(channel, entry);
      this.#worker.postMessage({ listen: channel });
    }
    const pair = { onNotify, onListening };
    entry.add(pair);
    return () => void entry!.delete(pair);
  }

  #listeners = new Map<
    string,
    Set<{ onNotify: (payload: string) => void; onListening: () => void }>
  >();

  #onWorkerMessage = (message: unknown) => {
    const data = message as {
      notification?: { channel: string; payload: string };
      listening?: { channel: string };
      listenError?: { channel: string; message: string };
    };
    const channel = data.notification?.channel ?? data.listening?.channel ??
      data.listenError?.channel;
    for (const pair of this.#listeners.get(channel ?? "") ?? []) {
      try {
        if (data.notification) pair.onNotify(data.notification.payload);
        else if (data.listening) pair.onListening();
      } catch (err) {
        console.error(`a NOTIFY listener on ${channel} failed: ${err}`);
      }
    }
    if (data.listenError) {
      console.error(`could not LISTEN on ${channel}: ${data.listenError.message}`);
    }
  };

  prepare(sql: string): SqlStatement {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = new PgStatement(this, sql);
      if (this.#statements.size >= 512) {
        this.#statements.delete(this.#statements.keys().next().value!);
      }
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // Nothing waits for the pool's goodbye, and it lets every connection finish what it is
    // doing (each statement is bounded by the statement timeout). Only then is a throwaway
    // schema or database dropped: a DROP … WITH (FORCE) that cut a pool connection still
    // starting up made that connection's own startup query reject with nobody listening
    // (CONNECTION_DESTROYED as an uncaught error), and so did ending the pool with a timeout.
    const poolEnded = this.#pool.end().catch(() => {});
    if (this.#opts.dropOnClose && (this.#opts.schema || this.#opts.clone)) {
      // The worker drops it, ends its connections and exits on its own; nobody waits for the
      // DROP (the test suite opens hundreds of these).
      void poolEnded.then(() => this.#worker.postMessage({ retire: true }));
      return;
    }
    try {
      this.#call({ kind: "close", text: "" });
    } finally {
      this.#worker.terminate();
    }
  }

  /** Run one request on the worker and wait for its answer. */
  query(text: string, params: SqlValue[]): { rows: SqlRow[]; count: number } {
    return this.#call({ kind: "query", text, params });
  }

  #call(req: WorkerRequest): { rows: SqlRow[]; count: number } {
    if (this.#closed && req.kind !== "close" && req.kind !== "exec") {
      throw new Error("database connection is closed");
    }
    const answer = this.#await((seq) =>
      this.#worker.postMessage({ request: serialize(req) as Uint8Array, seq })
    );
    if (!answer.ok) {
      const err = new Error(answer.message) as Error & { code?: string; sql?: string };
      err.code = answer.code;
      err.sql = req.text;
      throw err;
    }
    return { rows: answer.rows as SqlRow[], count: answer.count };
  }

  /** Send a request numbered `seq` and wait for the answer to that number (pg_protocol.ts). */
  #await(send: (seq: number) => void): WorkerAnswer {
    const seq = this.#seq = this.#seq % 0x7ffffffe + 1;
    send(seq);
    const deadline = performance.now() + STATEMENT_WAIT_MS;
    for (;;) {
      const held = Atomics.load(this.#words, STATE);
      if (held === seq) break;
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.#words, STATE, held, left) === "timed-out") {
        throw new Error(`the database did not answer within ${STATEMENT_WAIT_MS / 1000} s`);
      }
    }
    const length = Atomics.load(this.#words, LENGTH);
    const bytes = new Uint8Array(this.#shared, HEADER_BYTES, length).slice();
    return deserialize(bytes) as WorkerAnswer;
  }
}

class PgStatement implements SqlStatement {
  #db: PgDatabase;
  #text: string;
  #hideRowid: boolean;
  #pragma: ((db: PgDatabase) => SqlRow[]) | null;

  constructor(db: PgDatabase, sql: string) {
    this.#db = db;
    const translated = translateSql(sql);
    this.#text = translated.text;
    this.#hideRowid = translated.hideRowid;
    this.#pragma = translated.pragma;
  }

  all(...params: SqlValue[]): SqlRow[] {
    if (this.#pragma) return this.#pragma(this.#db);
    const { rows } = this.#db.query(this.#text, params.map(toParam));
    if (this.#hideRowid) { for (const row of rows) delete row.rowid; }
    return rows;
  }

  get(...params: SqlValue[]): SqlRow | undefined {
    return this.all(...params)[0];
  }

  run(...params: SqlValue[]): SqlRunResult {
    if (this.#pragma) return this.#pragma(this.#db), { changes: 0, lastInsertRowid: 0 };
    const { count } = this.#db.query(this.#text, params.map(toParam));
    return { changes: count, lastInsertRowid: 0 };
  }
}

/**
 * node:sqlite takes bigint and Uint8Array as they are; so does the wire, except undefined. A
 * PostgreSQL text cannot hold U+0000 (SQLite's can): it becomes U+FFFD, so a hostile id still
 * finds nothing and a tool output with a NUL byte is still stored, instead of a server error.
 */
function toParam(value: SqlValue): SqlValue {
  if (value === undefined) return null;
  return typeof value === "string" && value.includes("\u0000")
    ? value.replaceAll("\u0000", "\uFFFD")
    : value;
}
