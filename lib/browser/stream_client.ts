// Browser-safe: imports nothing from Deno or the database.
// Following a run's SSE stream from the browser (fetch streaming, so the cursor travels as
// `after_seq` and failures are ours to handle, not EventSource's silent retries). Invariants:
// every event is delivered at most once and in seq order (the cursor only moves forward);
// after a broken connection the status route is probed at 1.5, 3, 5, 8, 12 and 20 s and the
// stream resumed from the cursor while the run is active or its journal has more to replay;
// the follow ends exactly once: `ended` (a terminal event), `gone` (nothing left to replay:
// reload the settled session), `lost` (every probe failed) or `closed` (the caller stopped).
// The server's going-away frame is no end: the follow waits for the server to answer again
// (`serverTrouble`, lib/browser/connection_status.ts) and resumes from its cursor; so does a
// follow whose probes all failed while the page knows its server to be away.
import { GOING_AWAY_EVENT, type SequencedEvent, TERMINAL_EVENTS } from "../shared/chat_events.ts";
import type { ServerTrouble } from "./connection_status.ts";
import { t } from "../i18n/t.ts";

/** Seconds after a failure at which the status route is asked whether to resume. */
export const PROBE_SCHEDULE_MS: readonly number[] = [1500, 3000, 5000, 8000, 12000, 20000];

export type FollowOutcome =
  | { kind: "ended"; event: SequencedEvent }
  | { kind: "gone" }
  | { kind: "lost"; error: string }
  | { kind: "closed" };

export type FollowState = "connecting" | "live" | "reconnecting";

export interface FollowOptions {
  streamId: string;
  /** Events up to this seq are already shown (0: from the start of the journal). */
  afterSeq?: number;
  onEvent: (e: SequencedEvent) => void;
  onState?: (s: FollowState) => void;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  /** Resolves after `ms` or when `signal` aborts. Injectable for tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  probeScheduleMs?: readonly number[];
  /** Origin for relative URLs outside a browser (tests). */
  baseUrl?: string;
  /**
   * Told of a going-away, a break or a follow about to be lost: resolves true once the server
   * answers again (resume now), false to keep to the probe schedule. The page's is
   * lib/browser/connection_status.ts serverTrouble(), loaded on first need.
   */
  serverTrouble?: (what: ServerTrouble, signal: AbortSignal) => Promise<boolean>;
}

export interface Follow {
  /** Highest seq delivered so far. */
  readonly seq: number;
  readonly done: Promise<FollowOutcome>;
  /** Stop following (the run goes on on the server). */
  close(): void;
}

/** One parsed SSE frame. */
export interface SseFrame {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Incremental SSE parser: feed it decoded text in any split; it returns complete frames.
 * Comments (`: heartbeat`) are dropped; CRLF and CR line ends are accepted.
 */
export function createSseParser(): (chunk: string) => SseFrame[] {
  let buf = "";
  let id: string | null = null;
  let event = "";
  let data: string[] = [];
  return (chunk) => {
    buf += chunk;
    const frames: SseFrame[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(buf);
      if (!m) break;
      // A lone CR at the end may be the first half of CRLF: wait for more.
      if (m[0] === "\r" && m.index === buf.length - 1) break;
      const line = buf.slice(0, m.index);
      buf = buf.slice(m.index + m[0].length);
      if (line === "") {
        if (data.length || event) {
          frames.push({ id, event: event || "message", data: data.join("\n") });
        }
        id = null;
        event = "";
        data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "id") id = value;
      else if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    return frames;
  };
}

/** The seq of an `id: <stream_id>:<seq>` line, or null. */
export function seqOfId(id: string | null): number | null {
  if (!id) return null;
  const n = Number(id.slice(id.lastIndexOf(":") + 1));
  return Number.isInteger(n) && n >= 0 ? n : null;
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

interface StreamStatus {
  active: boolean;
  replay_available: boolean;
  last_seq?: number;
}

/**
 * Follow `streamId` from `afterSeq`: deliver its events, survive dropped connections and
 * server restarts, and say how it ended.
 */
export function followStream(opts: FollowOptions): Follow {
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = opts.sleep ?? defaultSleep;
  const schedule = opts.probeScheduleMs ?? PROBE_SCHEDULE_MS;
  const base = opts.baseUrl ?? "";
  const id = encodeURIComponent(opts.streamId);
  const stop = new AbortController();
  let seq = opts.afterSeq ?? 0;

  /**
   * Read one connection. "ended" with the terminal event, "gone" on 404, "away" when the server
   * said it is shutting down, else "broken".
   */
  async function connect(): Promise<
    { r: "ended"; event: SequencedEvent } | { r: "gone" } | { r: "away" } | {
      r: "broken";
      progressed: boolean;
      error: string;
    }
  > {
    let progressed = false;
    let res: Response;
    try {
      res = await doFetch(`${base}/api/chat/stream?stream_id=${id}&after_seq=${seq}`, {
        headers: { accept: "text/event-stream" },
        credentials: "same-origin",
        cache: "no-store",
        signal: stop.signal,
      });
    } catch (err) {
      return {
        r: "broken",
        progressed,
        error: t("transcript.streamUnreachable", { detail: String(err) }),
      };
    }
    if (res.status === 404) {
      await res.body?.cancel().catch(() => {});
      return { r: "gone" };
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      const error = t("transcript.streamStatus", { status: String(res.status) });
      return { r: "broken", progressed, error };
    }
    opts.onState?.("live");
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const parse = createSseParser();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const f of parse(value)) {
          if (f.event === GOING_AWAY_EVENT) {
            await reader.cancel().catch(() => {});
            return { r: "away" };
          }
          const n = seqOfId(f.id);
          if (n === null || n <= seq) continue;
          let data: unknown;
          try {
            data = JSON.parse(f.data);
          } catch {
            continue; // a corrupt frame: skip it, the cursor does not move past it
          }
          seq = n;
          progressed = true;
          const event = { event: f.event, data, seq: n } as SequencedEvent;
          opts.onEvent(event);
          if (TERMINAL_EVENTS.has(event.event)) {
            await reader.cancel().catch(() => {});
            return { r: "ended", event };
          }
        }
      }
      return { r: "broken", progressed, error: t("transcript.streamClosed") };
    } catch (err) {
      return {
        r: "broken",
        progressed,
        error: t("transcript.streamBroke", { detail: String(err) }),
      };
    } finally {
      reader.releaseLock?.();
    }
  }

  async function probe(): Promise<StreamStatus | null> {
    try {
      const res = await doFetch(`${base}/api/chat/stream/status?stream_id=${id}`, {
        headers: { accept: "application/json" },
        credentials: "same-origin",
        cache: "no-store",
        signal: stop.signal,
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        return null;
      }
      return await res.json() as StreamStatus;
    } catch {
      return null;
    }
  }

  /** False too when it could not be loaded (a server gone before the page finished loading). */
  const trouble = (what: ServerTrouble) =>
    opts.serverTrouble?.(what, stop.signal).catch(() => false) ?? false;

  async function run(): Promise<FollowOutcome> {
    opts.onState?.("connecting");
    // Position in the probe schedule and the time it is counted from (the first failure since
    // the last connection that delivered anything).
    let attempt = 0;
    let elapsed = 0;
    let lastError = "";
    for (;;) {
      if (stop.signal.aborted) return { kind: "closed" };
      const r = await connect();
      if (stop.signal.aborted) return { kind: "closed" };
      if (r.r === "ended") return { kind: "ended", event: r.event };
      if (r.r === "gone") return { kind: "gone" };
      opts.onState?.("reconnecting");
      // A restart takes as long as it takes: no schedule to run out, resume once it answers.
      if (await trouble(r.r)) {
        attempt = elapsed = 0;
        continue;
      }
      lastError = r.r === "away" ? t("transcript.streamClosed") : r.error;
      if (r.r === "broken" && r.progressed) attempt = elapsed = 0; // it delivered: start over
      // Probe on the schedule until one says resume.
      let resume = false;
      while (attempt < schedule.length) {
        const at = schedule[attempt++];
        await sleep(Math.max(0, at - elapsed), stop.signal);
        elapsed = at;
        if (stop.signal.aborted) return { kind: "closed" };
        const status = await probe();
        if (!status) continue;
        const more = status.last_seq === undefined || status.last_seq > seq;
        if (status.active || (status.replay_available && more)) {
          resume = true;
          break;
        }
        return { kind: "gone" };
      }
      if (!resume && await trouble("lost")) attempt = elapsed = 0;
      else if (stop.signal.aborted) return { kind: "closed" };
      else if (!resume) return { kind: "lost", error: lastError };
    }
  }

  const done = run();
  return {
    get seq() {
      return seq;
    },
    done,
    close() {
      stop.abort();
    },
  };
}
