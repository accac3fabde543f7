// The signal bus between the console processes that share one database (replicas). On
// PostgreSQL it is LISTEN/NOTIFY; on SQLite, where one process owns the file, it loops back in
// process. Invariants: a signal is only a pointer (`run_id:seq`, a replica id, a reason) — the
// data stays in the tables, because NOTIFY payloads are capped at 8,000 bytes and a signal sent
// while a listener was reconnecting is lost; so every subscriber also gets `resync` each time
// listening (re)starts, and re-reads its tables then. One bus per database (never process-wide).
import { type AsyncQueries, type Db, sql } from "../storage/db.ts";
import { PgDatabase } from "../storage/postgres/pg_database.ts";
import { randomHex } from "../ids.ts";

/** The channels in use, and what their payloads point at. */
export const CHANNELS = {
  /** `<stream_id>:<seq>`: a run's journal grew to seq. */
  run: "hermes_run",
  /** `<replica_id>`: a command row waits for that replica (lib/replicas/run_commands.ts). */
  command: "hermes_cmd",
  /** `<replica_id>|<reason>|<session_id>[|<title>]`: the session list changed (a rename's title). */
  sessions: "hermes_sessions",
  /** `<replica_id>`: the model catalog was refreshed; others refresh too. */
  catalog: "hermes_catalog",
} as const;

export interface Subscriber {
  /** A signal on the channel. */
  signal(payload: string): void;
  /** Listening (re)started: signals sent meanwhile are lost, re-read the tables. */
  resync?(): void;
}

export interface Bus {
  /** This process's id among the replicas (leases and command rows name it). */
  readonly replicaId: string;
  /** Whether other processes may share the database (PostgreSQL). */
  readonly shared: boolean;
  /**
   * Send a signal. On PostgreSQL it is a NOTIFY run on `via` (a transaction: the signal leaves
   * at its commit, and not at all on rollback) or on the pool; in one process it is delivered
   * after the current turn.
   */
  publish(channel: string, payload: string, via?: AsyncQueries): Promise<void>;
  subscribe(channel: string, subscriber: Subscriber): () => void;
}

const buses = new WeakMap<Db, Bus>();

/** The bus of `db` (created on first use). */
export function busOf(db: Db): Bus {
  let bus = buses.get(db);
  if (!bus) {
    bus = db instanceof PgDatabase ? new PostgresBus(db) : new LocalBus();
    buses.set(db, bus);
  }
  return bus;
}

class LocalBus implements Bus {
  readonly replicaId = randomHex(8);
  readonly shared = false;
  #subs = new Map<string, Set<Subscriber>>();

  publish(channel: string, payload: string, _via?: AsyncQueries): Promise<void> {
    for (const s of [...this.#subs.get(channel) ?? []]) {
      queueMicrotask(() => s.signal(payload));
    }
    return Promise.resolve();
  }

  subscribe(channel: string, subscriber: Subscriber): () => void {
    let set = this.#subs.get(channel);
    if (!set) this.#subs.set(channel, set = new Set());
    set.add(subscriber);
    return () => void set!.delete(subscriber);
  }
}

class PostgresBus implements Bus {
  readonly replicaId = randomHex(8);
  readonly shared = true;
  #db: PgDatabase;

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  async publish(channel: string, payload: string, via?: AsyncQueries): Promise<void> {
    await (via ?? this.#db).run(
      sql`SELECT pg_notify(CAST(${channel} AS TEXT), CAST(${payload} AS TEXT))`,
    );
  }

  subscribe(channel: string, subscriber: Subscriber): () => void {
    return this.#db.listen(
      channel,
      (payload) => subscriber.signal(payload),
      () => subscriber.resync?.(),
    );
  }
}
