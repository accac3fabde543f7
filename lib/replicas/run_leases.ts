// Runs across replicas: each running stream is owned by the process that started it, through a
// lease (streams.owner_replica, streams.lease_until) it renews every few seconds; a process that
// stops renewing (killed, cut off) has its runs recovered by another — marked interrupted, the
// partial answer rebuilt from the journal, the session freed — within the lease plus one sweep
// (LeaseTimings: 10 s and 3 s unless configured); one that is still connected but stalled keeps
// them until `hungSeconds` (replica_liveness.ts). Commands for a run owned elsewhere (cancel, steer, approval and clarify answers)
// travel as rows in run_commands with a signal on the command channel; the owner drains its
// rows on every signal and each time its listening (re)starts, so none is lost.
// With one process on the database (SQLite) none of this runs: every run is local.
import { type Db, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";
import { type Bus, busOf, CHANNELS } from "./bus.ts";
import { recoverInterruptedStreams } from "../engine/journal.ts";
import { parseJsonColumn } from "../storage/db.ts";
import { expireOrphanedApprovals } from "../approvals/approvals.ts";
import { publishSessionsChanged } from "../sessions/session_events.ts";
import { holdLivenessLock, OWNER_GONE } from "./replica_liveness.ts";

/**
 * How long a lease holds without renewal, how often it is renewed and swept, and how long a lapsed
 * lease of a replica still connected waits before its runs are taken anyway (replica_liveness.ts).
 */
export interface LeaseTimings {
  leaseSeconds: number;
  renewMs: number;
  sweepMs: number;
  hungSeconds: number;
}

export const DEFAULT_LEASE_TIMINGS: LeaseTimings = {
  leaseSeconds: 10,
  renewMs: 3_000,
  sweepMs: 3_000,
  hungSeconds: 60,
};

export type RunCommandKind = "cancel" | "steer" | "approval" | "clarify";

export interface RunCommand {
  kind: RunCommandKind;
  stream_id: string | null;
  payload: Record<string, unknown>;
}

/** What the owning process does with a command that reached it. */
export type RunCommandHandler = (cmd: RunCommand) => void;

export class RunLeases {
  readonly bus: Bus;
  #db: Db;
  #clock: Clock;
  #log: Logger;
  #timers: Array<ReturnType<typeof setInterval>> = [];
  #unsubscribe: (() => void) | null = null;
  #handler: RunCommandHandler | null = null;
  #followers = new Set<() => void>();
  #live: () => string[] = () => [];
  #timings: LeaseTimings;

  constructor(deps: { db: Db; clock: Clock; log: Logger; leases?: LeaseTimings }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#log = deps.log;
    this.#timings = deps.leases ?? DEFAULT_LEASE_TIMINGS;
    this.bus = busOf(deps.db);
  }

  get replicaId(): string {
    return this.bus.replicaId;
  }

  /** What a sweep may recover now: lapsed leases of gone owners, and of hung ones. */
  recoverable(): { expiredBefore: number; hungBefore: number } {
    const now = this.#clock();
    return { expiredBefore: now, hungBefore: now - this.#timings.hungSeconds };
  }

  /** The lease a run claimed now holds until (null on a database only this process uses). */
  newLeaseUntil(): number | null {
    return this.bus.shared ? this.#clock() + this.#timings.leaseSeconds : null;
  }

  /**
   * Start renewing this process's leases, sweeping expired ones and hearing commands
   * (replicas only). `handle` runs each command addressed to this process.
   */
  start(handle: RunCommandHandler, live: () => string[]): void {
    if (!this.bus.shared || this.#unsubscribe) return;
    this.#handler = handle;
    this.#live = live;
    // Taken in the background (a failure is logged; each renewal takes it again).
    this.#guard("liveness lock", () => holdLivenessLock(this.#db, this.replicaId));
    this.#unsubscribe = this.bus.subscribe(CHANNELS.command, {
      signal: (payload) => payload === this.replicaId && this.#drain(),
      resync: () => this.#drain(),
    });
    this.#timers.push(
      setInterval(() => this.#guard("renew", () => this.renew()), this.#timings.renewMs),
    );
    this.#timers.push(
      setInterval(() => this.#guard("sweep", () => this.sweep()), this.#timings.sweepMs),
    );
    // Timers that must not keep a stopping process (or a test) alive.
    for (const t of this.#timers) Deno.unrefTimer(t as unknown as number);
  }

  /**
   * Give up this process's leases at once (a clean shutdown: its runs were halted). The next
   * start, or any replica's sweep, recovers them now instead of after the lease — as a lone
   * SQLite process's next start does.
   */
  async releaseLeases(): Promise<void> {
    if (!this.bus.shared) return;
    await this.#db.run(
      sql`UPDATE streams SET lease_until = 0
          WHERE owner_replica = ${this.replicaId} AND status = 'running'`,
    );
  }

  /**
   * Register a stream following another replica's run here; `end` closes it. A follower never
   * ends on its own while the run lives elsewhere, and a server shutting down waits for every
   * open response: shutdown ends them first (endFollowers).
   */
  follow(end: () => void): () => void {
    this.#followers.add(end);
    return () => void this.#followers.delete(end);
  }

  endFollowers(): void {
    for (const end of [...this.#followers]) end();
    this.#followers.clear();
  }

  /**
   * Push forward the leases of the runs alive in this process — only those: a run this process
   * no longer runs (its end could not be recorded) lets its lease lapse, and a sweep closes it.
   */
  async renew(): Promise<void> {
    await holdLivenessLock(this.#db, this.replicaId);
    const live = this.#live();
    if (live.length === 0) return;
    const ids = sql.join(live.map((id) => sql`${id}`));
    await this.#db.run(
      sql`UPDATE streams SET lease_until = ${this.#clock() + this.#timings.leaseSeconds}
          WHERE owner_replica = ${this.replicaId} AND status = 'running'
          AND stream_id IN (${ids})`,
    );
  }

  /**
   * Recover the runs whose owner is gone (or hung). Returns how many. The look for one is
   * asynchronous (it runs every few seconds: a stalled database must not freeze the process
   * through it); only when one is found does the recovery itself run.
   */
  async sweep(): Promise<number> {
    const { expiredBefore, hungBefore } = this.recoverable();
    const expired = await this.#db.get(
      sql`SELECT stream_id FROM streams
          WHERE status = 'running' AND (lease_until IS NULL OR lease_until < ${expiredBefore})
          AND (owner_replica IS NULL OR lease_until IS NULL OR lease_until < ${hungBefore}
            OR ${sql.raw(OWNER_GONE)})
          LIMIT 1`,
    );
    if (!expired) return 0;
    const recovered = await recoverInterruptedStreams(this.#db, this.#clock, {
      expiredBefore,
      hungBefore,
    });
    if (recovered.length) {
      await expireOrphanedApprovals(this.#db, this.#clock);
      this.#log.warn(`recovered ${recovered.length} run(s) whose replica stopped`, {
        streams: recovered.map((s) => s.stream_id),
      });
      for (const s of recovered) await publishSessionsChanged(this.#db, "run_end", s.session_id);
    }
    return recovered.length;
  }

  /**
   * The replica that owns `streamId` while it runs, when that is another process (null when it
   * is this one, it is not running, or the database is not shared).
   */
  async remoteOwner(streamId: string): Promise<string | null> {
    if (!this.bus.shared) return null;
    const row = await this.#db.get<{ owner_replica: string | null }>(
      sql`SELECT owner_replica FROM streams
          WHERE stream_id = ${streamId} AND status = 'running'`,
    );
    const owner = row?.owner_replica ?? null;
    return owner && owner !== this.replicaId ? owner : null;
  }

  /** Queue a command for the replica that owns the run, and signal it. */
  async send(owner: string, cmd: RunCommand): Promise<void> {
    await this.#db.run(
      sql`INSERT INTO run_commands (replica_id, stream_id, kind, payload, created_at)
          VALUES (${owner}, ${cmd.stream_id}, ${cmd.kind}, ${JSON.stringify(cmd.payload)},
            ${this.#clock()})`,
    );
    await this.bus.publish(CHANNELS.command, owner);
  }

  /**
   * Send `cmd` to the owner of its run when another replica owns it. Returns whether it was
   * sent (false: run it here, or nothing runs).
   */
  async forward(cmd: RunCommand): Promise<boolean> {
    if (!cmd.stream_id) return false;
    const owner = await this.remoteOwner(cmd.stream_id);
    if (!owner) return false;
    await this.send(owner, cmd);
    return true;
  }

  close(): void {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #drain(): void {
    this.#guard("drain", () => this.#drainNow());
  }

  /** Take this replica's command rows (each drain takes its own: DELETE … RETURNING). */
  async #drainNow(): Promise<void> {
    const rows = await this.#db.all<
      { id: number; stream_id: string | null; kind: RunCommandKind; payload: string }
    >(
      sql`DELETE FROM run_commands WHERE replica_id = ${this.replicaId}
          RETURNING id, stream_id, kind, payload`,
    );
    rows.sort((a, b) => a.id - b.id);
    for (const r of rows) {
      this.#guard(`command ${r.kind}`, () =>
        this.#handler?.({
          kind: r.kind,
          stream_id: r.stream_id,
          payload: parseJsonColumn(r.payload, {}),
        }));
    }
  }

  #guard(what: string, fn: () => void | Promise<unknown>): void {
    const failed = (err: unknown) =>
      this.#log.warn(`replica ${what} failed`, { error: String(err) });
    try {
      const done = fn();
      // An async step (the sweep) fails later: heard here all the same.
      if (done instanceof Promise) done.catch(failed);
    } catch (err) {
      failed(err);
    }
  }
}
