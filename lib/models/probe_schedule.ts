// Fair time slices for one catalog rebuild's probes (seed §4.11, #7481). The serial chain of
// user-run endpoints shares the CALLER's window: each probe gets min(cap, left / (remaining +
// 0.1)) with no floor, so a dead endpoint cannot starve the live ones behind it. Invariants: a
// probe cut by its slice is "truncated" (never "unreachable", never cached) and is retried once
// at the full cap; each URL + credential is requested once per rebuild (the memo).
import {
  admitProbe,
  type ProbeIo,
  probeKey,
  type ProbeResult,
  type ProbeTarget,
  runProbe,
} from "./model_probes.ts";
import type { ModelInfo } from "./known_models.ts";
import type { Timers } from "../timers.ts";

/** A probe's final state inside a rebuild. */
export type ProbeOutcome =
  | { status: "ok"; models: ModelInfo[] }
  | { status: "error"; error: string; unreachable: boolean }
  | { status: "truncated" };

/**
 * Why a probe got the time it got. Only `unbounded` (budget 0) and `out-of-band` (the caller
 * explicitly stopped waiting) may spend the full cap regardless of the window.
 */
export type SliceMode = "unbounded" | "out-of-band" | "fair" | "attempt-only";

export interface ScheduleOptions {
  timers: Timers;
  /** The caller's ONE absolute deadline (timers.now() ms), or null: the unbounded legacy path. */
  deadline: number | null;
  /** Per-endpoint cap (CUSTOM_MODELS_ENDPOINT_TIMEOUT_SECONDS, 5 s). */
  capMs: number;
  /** For a probe reached after the window is spent while the caller still waits (0.01 s). */
  attemptOnlyMs: number;
  /** The explicit "caller stopped waiting" signal; never inferred from the clock. */
  callerStopped: () => boolean;
}

export class ProbeSchedule {
  constructor(readonly opts: ScheduleOptions) {}

  /** The slice of a serial probe when `remaining` distinct probes (this one included) are left. */
  slice(remaining: number): { ms: number; mode: SliceMode } {
    const o = this.opts;
    if (o.deadline === null) return { ms: o.capMs, mode: "unbounded" };
    if (o.callerStopped()) return { ms: o.capMs, mode: "out-of-band" };
    const left = o.deadline - o.timers.now();
    if (left <= 0) return { ms: o.attemptOnlyMs, mode: "attempt-only" };
    return { ms: Math.min(o.capMs, left / (Math.max(1, remaining) + 0.1)), mode: "fair" };
  }

  /** A parallel probe (hosted API) runs beside the chain: it may use the whole window left. */
  parallelSlice(): { ms: number; mode: SliceMode } {
    const s = this.slice(1);
    if (s.mode !== "fair") return s;
    const left = this.opts.deadline! - this.opts.timers.now();
    return { ms: Math.min(this.opts.capMs, left), mode: "fair" };
  }
}

export interface ProbeRoundDeps {
  io: ProbeIo;
  timers: Timers;
  /** Aborts every probe of the round (server shutdown). */
  signal: AbortSignal;
  /** Replaceable for unit tests; default: the real admission check and request. */
  admit?: (t: ProbeTarget, io: ProbeIo, signal: AbortSignal) => Promise<ProbeResult | null>;
  run?: (t: ProbeTarget, io: ProbeIo, signal: AbortSignal) => Promise<ProbeResult>;
}

const SLICE_EXPIRED = "probe slice expired";

/** One rebuild's probes: the serial chain plus the parallel hosted APIs, sharing one memo. */
export class ProbeRound {
  /** Outcome per provider group. */
  readonly outcomes = new Map<string, ProbeOutcome>();
  /** Requests actually started, per memo key (admission refusals are not requests). */
  readonly requests = new Map<string, number>();
  #memo = new Map<string, Promise<ProbeOutcome>>();
  #targets: ProbeTarget[] = [];

  constructor(readonly deps: ProbeRoundDeps) {}

  /** Probe every target: the serial ones in order under `schedule`, the others in parallel. */
  async run(targets: ProbeTarget[], schedule: ProbeSchedule): Promise<void> {
    this.#targets = targets;
    const serial = targets.filter((t) => t.serial);
    const chain = (async () => {
      for (let i = 0; i < serial.length; i++) {
        const { ms } = schedule.slice(this.#remaining(serial.slice(i)));
        this.outcomes.set(serial[i].providerId, await this.#probe(serial[i], ms, schedule));
      }
    })();
    const parallel = targets.filter((t) => !t.serial).map(async (t) => {
      const { ms } = schedule.parallelSlice();
      this.outcomes.set(t.providerId, await this.#probe(t, ms, schedule));
    });
    await Promise.all([chain, ...parallel]);
  }

  /** Provider ids whose probe was cut by its slice. */
  truncated(): string[] {
    return [...this.outcomes].filter(([, o]) => o.status === "truncated").map(([id]) => id);
  }

  /**
   * Retry each truncated endpoint once at the full cap (in parallel: no window remains to
   * share), keeping every successful probe. Targets sharing a memo key share the retry.
   */
  async retryTruncated(schedule: ProbeSchedule): Promise<void> {
    const byKey = new Map<string, ProbeTarget[]>();
    for (const t of this.#targets) {
      if (this.outcomes.get(t.providerId)?.status !== "truncated") continue;
      const k = probeKey(t);
      byKey.set(k, [...(byKey.get(k) ?? []), t]);
    }
    await Promise.all([...byKey].map(async ([key, group]) => {
      this.#memo.delete(key);
      const outcome = await this.#probe(group[0], schedule.opts.capMs, schedule);
      for (const t of group) this.outcomes.set(t.providerId, outcome);
    }));
  }

  /** Distinct memo keys still to be requested among `rest`: duplicates reserve no slot. */
  #remaining(rest: ProbeTarget[]): number {
    const keys = new Set(rest.map(probeKey).filter((k) => !this.#memo.has(k)));
    return Math.max(1, keys.size);
  }

  async #probe(t: ProbeTarget, ms: number, schedule: ProbeSchedule): Promise<ProbeOutcome> {
    const { timers, io, signal } = this.deps;
    const ac = new AbortController();
    const onClose = () => ac.abort(signal.reason);
    signal.addEventListener("abort", onClose, { once: true });
    const timer = timers.setTimeout(() => ac.abort(SLICE_EXPIRED), ms);
    const settle = (r: ProbeResult): ProbeOutcome => {
      if (r.status !== "aborted") return r;
      if (signal.aborted) return { status: "error", error: "Cancelled", unreachable: false };
      if (ms < schedule.opts.capMs) return { status: "truncated" };
      return {
        status: "error",
        error: `No answer within ${schedule.opts.capMs / 1000} s`,
        unreachable: true,
      };
    };
    try {
      if (signal.aborted) return settle({ status: "aborted" });
      const refused = await (this.deps.admit ?? admitProbe)(t, io, ac.signal);
      if (refused) return settle(refused);
      const key = probeKey(t);
      let pending = this.#memo.get(key);
      if (!pending) {
        this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
        pending = (this.deps.run ?? runProbe)(t, io, ac.signal).then(settle, () =>
          settle({
            status: "error",
            error: "Probe failed",
            unreachable: false,
          }));
        this.#memo.set(key, pending);
      }
      return await pending;
    } finally {
      timers.clearTimeout(timer);
      signal.removeEventListener("abort", onClose);
    }
  }
}
