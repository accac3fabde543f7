// The worker that owns the PostgreSQL connection for lib/storage/postgres/pg_database.ts.
// Invariants: one connection, so the main thread's BEGIN/SAVEPOINT/COMMIT land on the session
// that ran its statements; a request is answered by writing the structured-clone bytes of the
// result into the shared buffer and flipping the state word the main thread waits on; the
// buffer grows (it is a growable SharedArrayBuffer) when an answer does not fit.
import type postgres from "postgres";
import { deserialize, serialize } from "node:v8";
import { parentPort } from "node:worker_threads";
import {
  HEADER_BYTES,
  LENGTH,
  STATE,
  type WorkerAnswer,
  type WorkerRequest,
} from "./pg_protocol.ts";
import { numberTypes } from "./pg_types.ts";

/** How long a statement of the synchronous half waits for a row or table lock. */
const LOCK_WAIT_MS = 5_000;

/**
 * The npm client loads when the worker is told to connect, not as a static import: a module
 * that fails to load would never answer, and the main thread, blocked on the shared word, could
 * not hear the worker's error event. Loaded here, a failure is an answer like any other.
 */
let client: typeof postgres | null = null;
/** node:worker_threads, not a web Worker: the main side can unref it (see pg_database.ts). */
const port = parentPort!;
let sql: postgres.Sql | null = null;
let shared: SharedArrayBuffer | null = null;
/** What this connection was opened on: a schema or a cloned database to drop when retired. */
let schema: string | null = null;
let clone: Clone | null = null;

interface Clone {
  adminUrl: string;
  database: string;
  template: string;
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Run `text` on a short connection to the clone's admin database (the URL's own). */
async function onAdmin(c: Clone, text: string): Promise<void> {
  const admin = client!(c.adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(text);
  } finally {
    await admin.end({ timeout: 2 });
  }
}

/** Create the clone from its template unless it exists (a restart, a second replica). */
async function createClone(c: Clone): Promise<void> {
  try {
    await onAdmin(c, `CREATE DATABASE ${quoteName(c.database)} TEMPLATE ${quoteName(c.template)}`);
  } catch (err) {
    const code = (err as { code?: string }).code;
    // duplicate_database, or the same name created by a concurrent CREATE DATABASE.
    if (code !== "42P04" && code !== "23505") throw err;
  }
}

/** The number of the request being answered (pg_protocol.ts STATE). */
let answering = 0;

function answer(result: WorkerAnswer, seq = answering): void {
  const bytes = serialize(result);
  const need = HEADER_BYTES + bytes.length;
  if (shared!.byteLength < need) shared!.grow(Math.max(need, shared!.byteLength * 2));
  new Uint8Array(shared!, HEADER_BYTES, bytes.length).set(bytes);
  const words = new Int32Array(shared!, 0, 4);
  Atomics.store(words, LENGTH, bytes.length);
  Atomics.store(words, STATE, seq);
  Atomics.notify(words, STATE);
}

async function run(req: WorkerRequest): Promise<WorkerAnswer> {
  try {
    if (req.kind === "close") {
      await listener?.end({ timeout: 1 });
      listener = null;
      await sql?.end({ timeout: 2 });
      sql = null;
      return { ok: true, rows: [], count: 0 };
    }
    const result = req.kind === "exec"
      ? await sql!.unsafe(req.text) // simple protocol: several statements in one text
      : await sql!.unsafe(req.text, req.params as postgres.ParameterOrJSON<never>[], {
        prepare: true,
      });
    const rows = Array.isArray(result) ? [...result] as Record<string, unknown>[] : [];
    return { ok: true, rows, count: (result as { count?: number }).count ?? 0 };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    return { ok: false, message: e.message ?? String(err), code: e.code };
  }
}

/**
 * LISTEN runs on a second connection of its own (postgres.js re-listens after a reconnect).
 * Each (re)start of listening is reported too: a notification sent while the listener was
 * reconnecting is lost, so the main thread re-reads its tables then.
 */
let listener: postgres.Sql | null = null;
let listenUrl = "";
let listenSchema: string | null = null;

async function listen(channel: string): Promise<void> {
  listener ??= client!(listenUrl, {
    max: 1,
    onnotice: () => {},
    connection: listenSchema ? { search_path: listenSchema } : {},
  });
  await listener.listen(
    channel,
    (payload) => port.postMessage({ notification: { channel, payload } }),
    () => port.postMessage({ listening: { channel } }),
  );
}

port.on("message", async (message: unknown) => {
  const data = message as
    | {
      init: {
        url: string;
        schema: string | null;
        clone: Clone | null;
        buffer: SharedArrayBuffer;
        seq: number;
      };
    }
    | { request: Uint8Array; seq: number }
    | { listen: string }
    | { retire: true };
  if ("retire" in data) {
    if (schema) await sql?.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await listener?.end({ timeout: 1 }).catch(() => {});
    await sql?.end({ timeout: 2 }).catch(() => {});
    if (clone) {
      await onAdmin(clone, `DROP DATABASE IF EXISTS ${quoteName(clone.database)} WITH (FORCE)`)
        .catch(() => {});
    }
    // Nothing is left pending: end the thread (Deno runs worker_threads on its web workers).
    (globalThis as { close?: () => void }).close?.();
    return;
  }
  if ("listen" in data) {
    try {
      await listen(data.listen);
    } catch (err) {
      port.postMessage({ listenError: { channel: data.listen, message: String(err) } });
    }
    return;
  }
  if ("init" in data) {
    answering = data.init.seq;
    listenUrl = data.init.url;
    listenSchema = data.init.schema;
    schema = data.init.schema;
    clone = data.init.clone;
    shared = data.init.buffer;
    try {
      client = (await import("postgres")).default;
    } catch (err) {
      answer({ ok: false, message: `could not load the PostgreSQL client: ${err}` });
      return;
    }
    if (clone) {
      try {
        await createClone(clone);
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        answer({ ok: false, message: `could not clone ${clone.template}: ${message}` });
        return;
      }
    }
    sql = client(data.init.url, {
      max: 1,
      onnotice: () => {},
      types: numberTypes,
      connection: {
        ...(data.init.schema ? { search_path: data.init.schema } : {}),
        // While the main thread waits on this connection it cannot run anything else, including
        // the rest of an async transaction (the pool's) holding the lock this statement wants:
        // that would be a freeze until the 120 s wait ends. A lock wait here gives up first.
        lock_timeout: LOCK_WAIT_MS,
      },
    });
    answer({ ok: true, rows: [], count: 0 });
    return;
  }
  const seq = data.seq;
  answer(await run(deserialize(data.request) as WorkerRequest), seq);
});
