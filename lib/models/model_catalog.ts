// The generation-fenced model catalog behind `GET /api/models` (seed §4.11). A cold rebuild
// live-probes every provider in the background; the caller waits at most until ONE absolute
// deadline, then gets the last catalog (or the static one) while the rebuild lands for the next
// caller. Invariants: a build older than the newest ALLOCATED generation, or whose source
// identity changed, never publishes (memory or disk) and never releases the single-flight slot;
// the two locks are always taken disk-commit → catalog, and no disk commit runs while a
// foreground caller holds the catalog lock.
import { AsyncMutex, type Release } from "../async_mutex.ts";
import type { AppConfig } from "../settings/config.ts";
import type { Logger } from "../log.ts";
import {
  assembleGroups,
  fitGroups,
  type ModelGroup,
  type ModelsResponse,
  modelsResponse,
  staticCatalog,
} from "./model_groups.ts";
import {
  CatalogCacheFile,
  type DurableCatalog,
  readSourceIdentity,
  sameIdentity,
  type SourceIdentity,
} from "./model_catalog_store.ts";
import { planProbeTargets, type ProbeIo } from "./model_probes.ts";
import { type ProbeOutcome, ProbeRound, ProbeSchedule } from "./probe_schedule.ts";
import { type ResolvedProviders, resolveProviders } from "../providers/provider_config.ts";
import { systemTimers, type Timers } from "../timers.ts";
import { join } from "node:path";

export interface ModelCatalogOptions {
  /** The current configuration (re-read on every call: settings may replace it). */
  getConfig: () => AppConfig;
  stateDir: string;
  timers?: Timers;
  /** fetch and DNS used by the probes (tests inject fakes; default: the real ones). */
  io?: ProbeIo;
  log?: Logger;
  /** Overrides `config.modelsRebuildBudgetSeconds` (0 = wait without bound). */
  budgetSeconds?: number;
  /** Per-endpoint cap; default env CUSTOM_MODELS_ENDPOINT_TIMEOUT_SECONDS, else 5. */
  endpointCapSeconds?: number;
  /** Default env CUSTOM_MODELS_ATTEMPT_ONLY_TIMEOUT_SECONDS, else 0.01. */
  attemptOnlySeconds?: number;
  /** How long a complete catalog stays fresh (default a day; refresh re-probes at once). */
  ttlSeconds?: number;
  /** Freshness of a catalog in which some provider failed (default 5 minutes). */
  failedTtlSeconds?: number;
  /** Observes each build's fate (diagnostics and tests). */
  onEvent?: (event: CatalogEvent) => void;
}

/**
 * A build's fate: its catalog published to memory, committed to disk, or dropped by a fence
 * (`superseded`: an invalidation or a newer build; `source changed`: the config or keys moved
 * while it ran, or could not be read; `failed`: the worker threw).
 */
export interface CatalogEvent {
  generation: number;
  outcome: "published" | "committed" | "dropped";
  reason?: "superseded" | "source changed" | "failed";
  outOfBand: boolean;
}

type Delivery =
  | { kind: "complete"; groups: ModelGroup[] }
  | { kind: "partial"; outcomes: Map<string, ProbeOutcome> }
  | { kind: "failed" }
  | { kind: "deadline" };

/** One cold rebuild: its generation, what it was built from, and the caller handoff. */
class Build {
  /** True while the admitting caller still waits; the explicit "caller stopped" signal. */
  waiting = true;
  readonly delivered: Promise<Delivery>;
  readonly done: Promise<void>;
  #deliver!: (d: Delivery) => void;
  #finish!: () => void;

  constructor(
    readonly generation: number,
    readonly identity: SourceIdentity | null,
    readonly resolved: ResolvedProviders,
    readonly deadline: number | null,
  ) {
    this.delivered = new Promise((r) => this.#deliver = r);
    this.done = new Promise((r) => this.#finish = r);
  }

  /** Hand a result to the waiting caller; false when it already stopped waiting. */
  deliver(d: Delivery): boolean {
    if (!this.waiting) return false;
    this.waiting = false;
    this.#deliver(d);
    return true;
  }

  /** The caller gives up; false when a delivery beat it (the caller then takes that). */
  stopWaiting(): boolean {
    if (!this.waiting) return false;
    this.waiting = false;
    return true;
  }

  /** The build's lifecycle is over: published, dropped or failed. Idempotent. */
  finish(): void {
    this.#finish();
  }
}

interface Published {
  generation: number;
  identity: SourceIdentity;
  groups: ModelGroup[];
  expiresAt: number;
}

/** A positive number of seconds from the environment snapshot, else `fallback`. */
function envSeconds(env: Readonly<Record<string, string>>, name: string, fallback: number): number {
  const n = Number(env[name]);
  return env[name] && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Resolve with `p`, or with undefined once `deadline` passes (null: wait without bound). */
function waitUntil<T>(
  timers: Timers,
  p: Promise<T>,
  deadline: number | null,
): Promise<T | undefined> {
  if (deadline === null) return p;
  return new Promise((resolve) => {
    const handle = timers.setTimeout(() => resolve(undefined), deadline - timers.now());
    p.then((v) => (timers.clearTimeout(handle), resolve(v)));
  });
}

export class ModelCatalog {
  readonly #opts: ModelCatalogOptions;
  readonly #timers: Timers;
  readonly #file: CatalogCacheFile;
  /** Lock order everywhere: #commitLock, then #catalogLock. */
  readonly #commitLock = new AsyncMutex("models-disk-commit");
  readonly #catalogLock = new AsyncMutex("models-catalog");
  readonly #closing = new AbortController();
  readonly #builds = new Set<Build>();
  /** The newest ALLOCATED generation: the publication fence. */
  #allocated = 0;
  #diskCommitted = 0;
  /** The single-flight slot: the newest build still running, if any. */
  #owner: Build | null = null;
  #memory: Published | null = null;

  constructor(opts: ModelCatalogOptions) {
    this.#opts = opts;
    this.#timers = opts.timers ?? systemTimers;
    this.#file = new CatalogCacheFile(join(opts.stateDir, "models_cache.json"));
  }

  /** The durable cache's path. */
  get cachePath(): string {
    return this.#file.path;
  }

  /** Introspection for tests and diagnostics. */
  state() {
    return {
      /** Newest allocated generation. */
      allocated: this.#allocated,
      /** The single-flight slot is taken. */
      building: this.#owner !== null,
      /** Generation of the catalog in memory, if any. */
      published: this.#memory?.generation ?? null,
      diskCommitted: this.#diskCommitted,
      locked: this.#commitLock.locked || this.#catalogLock.locked,
    };
  }

  /**
   * The picker's catalog. Hot: the published catalog when its sources are unchanged. Expired:
   * served at once while a background rebuild refreshes it. Cold: a rebuild the caller waits
   * for until its deadline, captured first, before any work.
   */
  async getModels(): Promise<ModelsResponse> {
    const config = this.#opts.getConfig();
    const budget = this.#opts.budgetSeconds ?? config.modelsRebuildBudgetSeconds;
    const deadline = budget > 0 ? this.#timers.now() + budget * 1000 : null;
    const resolved = resolveProviders(config);
    const hot = this.#fresh(await readSourceIdentity(config));
    if (hot) return modelsResponse(resolved, fitGroups(resolved, hot.groups), "live");
    // A disk snapshot read outside the lock is published only if its epoch still holds.
    const epoch = this.#allocated;
    const disk = await this.#file.read();
    const { response, commit } = await this.#coldPath(config, resolved, deadline, epoch, disk);
    if (commit) await commit();
    return response;
  }

  async #coldPath(
    config: AppConfig,
    resolved: ResolvedProviders,
    deadline: number | null,
    epoch: number,
    disk: DurableCatalog | null,
  ): Promise<{ response: ModelsResponse; commit?: () => Promise<void> }> {
    let release: Release | null = await this.#catalogLock.acquire();
    try {
      const identity = await readSourceIdentity(config);
      const hot = this.#fresh(identity);
      if (hot) {
        return { response: modelsResponse(resolved, fitGroups(resolved, hot.groups), "live") };
      }
      if (
        disk && epoch === this.#allocated && sameIdentity(disk.identity, identity) &&
        disk.expires_at_ms > this.#timers.now()
      ) {
        this.#memory = {
          generation: this.#allocated,
          identity: disk.identity,
          groups: disk.groups,
          expiresAt: disk.expires_at_ms,
        };
        return { response: modelsResponse(resolved, fitGroups(resolved, disk.groups), "cache") };
      }
      const running = this.#owner;
      const joinable = running !== null && sameIdentity(running.identity, identity);
      // Expired but from the same sources: serve it now and refresh behind it, nobody waiting.
      const stale = this.#memory && sameIdentity(this.#memory.identity, identity)
        ? this.#memory.groups
        : disk && epoch === this.#allocated && sameIdentity(disk.identity, identity)
        ? disk.groups
        : null;
      if (stale) {
        if (!joinable) this.#admit(identity, resolved, null, false);
        return { response: modelsResponse(resolved, fitGroups(resolved, stale), "cache", true) };
      }
      if (running && joinable) {
        // Join the build already running out-of-band. Its publisher needs the catalog lock,
        // so this caller must not hold it while it waits.
        release();
        release = null;
        await waitUntil(this.#timers, running.done, deadline);
        const landed = this.#fresh(await readSourceIdentity(config));
        if (landed) {
          return { response: modelsResponse(resolved, fitGroups(resolved, landed.groups), "live") };
        }
        return { response: this.#fallback(resolved, disk, this.#owner !== null) };
      }
      const build = this.#admit(identity, resolved, deadline);
      const delivery = await this.#waitForeground(build);
      if (delivery.kind === "partial") {
        const prior = new Map(
          (this.#memory?.groups ?? disk?.groups ?? []).map((g) => [g.provider_id, g]),
        );
        const groups = assembleGroups(resolved, delivery.outcomes, prior);
        return { response: modelsResponse(resolved, groups, "partial", true) };
      }
      if (delivery.kind === "deadline") return { response: this.#fallback(resolved, disk, true) };
      if (delivery.kind === "failed") {
        this.#emit(build, "dropped", false, "failed");
        this.#release(build);
        build.finish();
        return { response: this.#fallback(resolved, disk, false) };
      }
      const rejected = this.#fence(build, await readSourceIdentity(this.#opts.getConfig()));
      if (rejected) {
        this.#emit(build, "dropped", false, rejected);
        this.#release(build);
        build.finish();
        return { response: this.#fallback(resolved, disk, this.#owner !== null) };
      }
      this.#memory = this.#published(build, delivery.groups);
      this.#emit(build, "published", false);
      // The durable commit is queued, not run here: it takes the commit lock, and taking it
      // while holding the catalog lock is the deadlock order (#7481 review).
      const groups = delivery.groups;
      return {
        response: modelsResponse(resolved, groups, "live"),
        commit: () => this.#commit(build, groups, false).finally(() => build.finish()),
      };
    } finally {
      release?.();
    }
  }

  /** Wait for the build's result until the caller's deadline; past it, stop waiting. */
  #waitForeground(build: Build): Promise<Delivery> {
    if (build.deadline === null) return build.delivered;
    return new Promise((resolve) => {
      const handle = this.#timers.setTimeout(() => {
        if (build.stopWaiting()) resolve({ kind: "deadline" });
      }, build.deadline! - this.#timers.now());
      build.delivered.then((d) => {
        this.#timers.clearTimeout(handle);
        resolve(d);
      });
    });
  }

  /** Allocate the next generation and start its worker. Caller holds the catalog lock. */
  #admit(
    identity: SourceIdentity | null,
    resolved: ResolvedProviders,
    deadline: number | null,
    foreground = true,
  ): Build {
    const build = new Build(++this.#allocated, identity, resolved, deadline);
    build.waiting = foreground;
    this.#owner = build;
    this.#builds.add(build);
    build.done.then(() => this.#builds.delete(build));
    // Runs on its own: #work settles `build` whatever happens, and callers wait on it.
    void this.#work(build);
    return build;
  }

  async #work(build: Build): Promise<void> {
    const env = this.#opts.getConfig().env;
    const cap = this.#opts.endpointCapSeconds ??
      envSeconds(env, "CUSTOM_MODELS_ENDPOINT_TIMEOUT_SECONDS", 5);
    const attemptOnly = this.#opts.attemptOnlySeconds ??
      envSeconds(env, "CUSTOM_MODELS_ATTEMPT_ONLY_TIMEOUT_SECONDS", 0.01);
    const schedule = new ProbeSchedule({
      timers: this.#timers,
      deadline: build.deadline,
      capMs: cap * 1000,
      attemptOnlyMs: attemptOnly * 1000,
      callerStopped: () => !build.waiting,
    });
    const round = new ProbeRound({
      io: this.#opts.io ?? {},
      timers: this.#timers,
      signal: this.#closing.signal,
    });
    try {
      await round.run(planProbeTargets(build.resolved), schedule);
      if (round.truncated().length > 0) {
        // The partial catalog goes to a waiting caller, uncached; the retry runs after it
        // returns, at the full cap (the caller has stopped waiting: out-of-band).
        build.deliver({ kind: "partial", outcomes: new Map(round.outcomes) });
        await round.retryTruncated(schedule);
      }
      const groups = assembleGroups(build.resolved, round.outcomes);
      if (build.deliver({ kind: "complete", groups })) return; // the caller publishes
      await this.#commit(build, groups, true);
    } catch (err) {
      this.#opts.log?.error("Model catalog rebuild failed", { error: String(err) });
      if (build.deliver({ kind: "failed" })) return;
      this.#emit(build, "dropped", true, "failed");
      this.#release(build);
    }
    build.finish();
  }

  /**
   * The durable commit (and, out-of-band, the memory publication): write a temp file with no
   * lock held, then take commit → catalog, re-check the fences and rename. Ownership of the
   * single-flight slot is released only after the disk I/O, and only by the newest build.
   */
  async #commit(build: Build, groups: ModelGroup[], publishMemory: boolean): Promise<void> {
    const record = this.#published(build, groups);
    let temp: string | null = null;
    try {
      if (record.identity) temp = await this.#file.writeTemp(this.#durable(build, record));
    } catch (err) {
      this.#opts.log?.warn("Cannot write the model catalog cache", { error: String(err) });
    }
    const releaseCommit = await this.#commitLock.acquire();
    try {
      const releaseCatalog = await this.#catalogLock.acquire();
      try {
        const rejected = this.#fence(build, await readSourceIdentity(this.#opts.getConfig()));
        if (rejected) return this.#emit(build, "dropped", publishMemory, rejected);
        if (publishMemory) {
          this.#memory = record;
          this.#emit(build, "published", true);
        }
        if (temp && build.generation > this.#diskCommitted) {
          await this.#file.commit(temp);
          temp = null;
          this.#diskCommitted = build.generation;
          this.#emit(build, "committed", publishMemory);
        }
      } finally {
        releaseCatalog();
      }
    } catch (err) {
      this.#opts.log?.warn("Cannot commit the model catalog cache", { error: String(err) });
    } finally {
      releaseCommit();
      if (temp) await this.#file.discard(temp);
      this.#release(build);
    }
  }

  /**
   * Forget the catalog: advance the generation (every running build is superseded, even if no
   * new build ever starts), retire the in-flight owner, clear memory and delete the durable
   * cache, under the same commit → catalog lock order as the writers. `provider` is the
   * provider the caller asked to refresh (informational: every provider shares one epoch).
   */
  async invalidate(_provider?: string): Promise<void> {
    const releaseCommit = await this.#commitLock.acquire();
    try {
      const releaseCatalog = await this.#catalogLock.acquire();
      try {
        this.#allocated++;
        this.#owner = null;
        this.#memory = null;
        await this.#file.remove();
      } finally {
        releaseCatalog();
      }
    } finally {
      releaseCommit();
    }
  }

  /** Resolves once no build is running and every queued commit has landed. */
  async settled(): Promise<void> {
    while (this.#builds.size > 0) await Promise.all([...this.#builds].map((b) => b.done));
  }

  /** Stop: cancel every probe, supersede every build and wait for them to wind down. */
  async close(): Promise<void> {
    this.#closing.abort(new Error("model catalog closed"));
    this.#allocated++;
    this.#owner = null;
    await this.settled();
  }

  /** Why `build` may not publish now (null: it may): the generation and identity fences. */
  #fence(build: Build, current: SourceIdentity | null): CatalogEvent["reason"] | null {
    if (this.#closing.signal.aborted || build.generation !== this.#allocated) return "superseded";
    return sameIdentity(build.identity, current) ? null : "source changed";
  }

  #emit(
    build: Build,
    outcome: CatalogEvent["outcome"],
    outOfBand: boolean,
    reason?: CatalogEvent["reason"],
  ): void {
    const event: CatalogEvent = {
      generation: build.generation,
      outcome,
      outOfBand,
      ...(reason ? { reason } : {}),
    };
    try {
      this.#opts.onEvent?.(event);
    } catch (err) {
      this.#opts.log?.warn("A model catalog event observer failed", { error: String(err) });
    }
  }

  #release(build: Build): void {
    if (this.#owner === build && build.generation === this.#allocated) this.#owner = null;
  }

  #fresh(identity: SourceIdentity | null): Published | null {
    const m = this.#memory;
    return m && sameIdentity(m.identity, identity) && m.expiresAt > this.#timers.now() ? m : null;
  }

  #published(build: Build, groups: ModelGroup[]): Published {
    const failed = groups.some((g) => g.error !== undefined);
    const ttl = failed ? (this.#opts.failedTtlSeconds ?? 300) : (this.#opts.ttlSeconds ?? 86_400);
    return {
      generation: build.generation,
      identity: build.identity!,
      groups,
      expiresAt: this.#timers.now() + ttl * 1000,
    };
  }

  #durable(build: Build, p: Published): DurableCatalog {
    return {
      version: 1,
      generation: build.generation,
      identity: p.identity,
      saved_at_ms: this.#timers.now(),
      expires_at_ms: p.expiresAt,
      groups: p.groups,
    };
  }

  /**
   * The degraded answer for a caller that stopped waiting: the last catalog this process
   * published, else the durable cache of this profile, else the static catalog. Deliberately
   * not fenced (it is served, never published), fitted to the current providers.
   */
  #fallback(resolved: ResolvedProviders, disk: DurableCatalog | null, refreshing: boolean) {
    const config = this.#opts.getConfig();
    const cached = this.#memory?.groups ??
      (disk && disk.identity.profile === config.configPath ? disk.groups : null);
    if (cached) return modelsResponse(resolved, fitGroups(resolved, cached), "cache", refreshing);
    return modelsResponse(resolved, staticCatalog(resolved), "static", refreshing);
  }
}

/** Build the catalog for an app (main.ts wires it into AppContext as `models`). */
export function createModelCatalog(opts: ModelCatalogOptions): ModelCatalog {
  return new ModelCatalog(opts);
}

/**
 * Invalidate the model catalog after any change to providers, keys or the config file
 * (settings save, onboarding, `/api/models/refresh`). Resolves once the cache is gone and
 * every running rebuild is superseded; the next `/api/models` call re-probes.
 */
export function invalidateModelCatalog(catalog: ModelCatalog, provider?: string): Promise<void> {
  return catalog.invalidate(provider);
}
