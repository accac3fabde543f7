// The SSE side of a run: replay the journal after the client's cursor, then follow live events
// with no gap and no duplicate. Invariants: subscribe BEFORE reading the journal, and read it
// only once the run's journal writes queued before the subscription settled (Run.journaled):
// listeners hear an event before its write lands, so every event is then either in the journal
// read or held from the subscription; anything at or below the last seq sent is dropped; frames come only
// from `encodeSseFrame`; the stream closes after a terminal event or when the run ends; a
// `: heartbeat` comment every few seconds keeps proxies from cutting an idle connection.
import { encodeSseFrame, type SequencedEvent, TERMINAL_EVENTS } from "../shared/chat_events.ts";
import type { Db } from "../storage/db.ts";
import { NotFoundError } from "../errors.ts";
import { getStream, readEvents } from "./journal.ts";
import type { Run } from "./run.ts";
import { type Bus, CHANNELS } from "../replicas/bus.ts";

export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
  connection: "keep-alive",
};

export interface SseSource {
  db: Db;
  /** The live run of this stream, when it is still running in this process. */
  run: Run | undefined;
  heartbeatMs: number;
  /**
   * The replica bus, when other processes share the database: a run running on another replica
   * is followed from the journal table, woken by its `stream_id:seq` signals.
   */
  bus?: Bus;
  /** Where a follower of another replica's run registers, so a shutdown can end it. */
  followers?: { follow(end: () => void): () => void };
}

const enc = new TextEncoder();
const HEARTBEAT = enc.encode(": heartbeat\n\n");

/**
 * The SSE response for `streamId`, resuming after `afterSeq`. Rejects with NotFoundError when
 * the stream is unknown, or over with nothing left to replay.
 */
export async function streamResponse(
  src: SseSource,
  streamId: string,
  afterSeq: number,
): Promise<Response> {
  const { db, run } = src;
  const live = run && run.streaming ? run : undefined;
  let lastSent = afterSeq;
  let buffered: SequencedEvent[] | null = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  let closed = false;
  /** The live run ended while the replay was being read: close once it is sent. */
  let liveEnded = false;

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe?.();
    try {
      controller.close();
    } catch { /* already closed or cancelled */ }
  };
  const send = (e: SequencedEvent) => {
    if (closed || e.seq <= lastSent) return;
    lastSent = e.seq;
    try {
      controller.enqueue(enc.encode(encodeSseFrame(streamId, e)));
    } catch {
      return close();
    }
    if (TERMINAL_EVENTS.has(e.event)) close();
  };

  // 1. Subscribe first: live events are held while the journal is replayed.
  if (live) {
    unsubscribe = live.subscribe(
      (e) => (buffered ? buffered.push(e) : send(e)),
      () => {
        if (buffered) liveEnded = true;
        else queueMicrotask(close);
      },
    );
  }
  // A run another replica owns: its signals say the journal grew; read past the last seq sent.
  // Reads are chained, one at a time, so frames leave in order.
  let reading: Promise<void> = Promise.resolve();
  const catchUp = () => {
    if (closed || buffered) return;
    reading = reading.then(async () => {
      if (closed) return;
      for (const e of await readEvents(db, streamId, lastSent)) send(e);
    }).catch(() => {/* the next signal or resync reads again */});
  };
  let row: Awaited<ReturnType<typeof getStream>> = null;
  let remote = false;
  let past: SequencedEvent[];
  try {
    row = live ? null : await getStream(db, streamId);
    remote = !live && !!src.bus?.shared && row?.status === "running";
    if (remote) {
      const prefix = `${streamId}:`;
      const stop = src.bus!.subscribe(CHANNELS.run, {
        signal: (payload) => {
          if (payload.startsWith(prefix) && Number(payload.slice(prefix.length)) > lastSent) {
            catchUp();
          }
        },
        resync: catchUp,
      });
      // No polling: every event the owner writes signals, a dead owner's run is closed by the
      // replica that recovers it (which signals its final events too), and a listener that
      // reconnects re-reads (resync).
      const unfollow = src.followers?.follow(() => close());
      unsubscribe = () => {
        stop();
        unfollow?.();
      };
    }
    // 2. Replay from the journal, once what the live run emitted before the subscription is
    // written (events emitted since are held in `buffered`).
    if (live) await live.journaled();
    past = await readEvents(db, streamId, afterSeq);
  } catch (err) {
    unsubscribe?.();
    throw err;
  }
  if (!live && !remote && past.length === 0) {
    unsubscribe?.();
    throw new NotFoundError("stream not found");
  }
  if (!live && !row) {
    unsubscribe?.();
    throw new NotFoundError("stream not found");
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const e of past) send(e);
      // 3. Then what arrived during the replay, de-duplicated by seq, then live.
      const held = buffered ?? [];
      buffered = null;
      for (const e of held) send(e);
      if ((!live && !remote) || liveEnded) return close();
      // Whatever the owner wrote between the replay's read and now.
      if (remote) catchUp();
      if (!closed) {
        heartbeat = setInterval(() => {
          if (closed) return;
          try {
            controller.enqueue(HEARTBEAT);
          } catch {
            close();
          }
        }, src.heartbeatMs);
      }
    },
    cancel() {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe?.();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
