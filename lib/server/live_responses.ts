// The app's long-lived responses (every text/event-stream answer, WebSockets, long polls) and how a
// shutdown ends them. Deno's server.shutdown() waits for every open response, and an event stream
// never ends by itself: without this, a page following a run that waits for an approval kept the
// process alive until its tab closed. Invariants: after goingAway() no stream stays open, each
// stream's last frame is GOING_AWAY_FRAME (never a run event: the page reconnects later), and a
// stream opened afterwards gets that frame at once.
import { GOING_AWAY_EVENT } from "../shared/chat_events.ts";

/** The going-away frame, byte for byte the same on every stream. */
export const GOING_AWAY_FRAME = `event: ${GOING_AWAY_EVENT}\ndata: {"reason":"shutdown"}\n\n`;

const enc = new TextEncoder();

/** What a long poll answers (503) when the server goes away before its run ended. */
export const SHUTTING_DOWN =
  "The server is shutting down before the run ended; once it is back, the run reads as interrupted";

/** Register one more thing a shutdown must end; returns the function that forgets it. */
export type OnGoingAway = (end: () => void) => () => void;

export class LiveResponses {
  #ends = new Set<() => void>();
  #stop = new AbortController();

  /** Aborts when the server starts going away: a long poll stops waiting on it and answers 503. */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** How many tracked streams and sockets are still open. */
  get open(): number {
    return this.#ends.size;
  }

  /**
   * Run `end` when the server goes away (at once when it already has): a WebSocket closes with
   * 1001, what its protocol calls "going away".
   */
  onGoingAway: OnGoingAway = (end) => {
    if (this.#stop.signal.aborted) {
      end();
      return () => {};
    }
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  };

  /**
   * `res` as it is, or, when it is an event stream, the same stream relayed chunk by chunk so
   * that goingAway() can append the going-away frame and close it. A client leaving still
   * cancels the route's own stream (its cleanup runs), and backpressure is kept: a chunk is read
   * from the route's stream only when the connection asks for one.
   */
  track(res: Response): Response {
    if (!res.body || !res.headers.get("content-type")?.startsWith("text/event-stream")) return res;
    const reader = res.body.getReader();
    let done = false;
    let forget = () => {};
    const finish = () => {
      done = true;
      forget();
    };
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        forget = this.onGoingAway(() => {
          if (done) return;
          finish();
          try {
            c.enqueue(enc.encode(GOING_AWAY_FRAME));
            c.close();
          } catch { /* the client left at the same moment */ }
          reader.cancel().catch(() => {});
        });
      },
      pull: async (c) => {
        try {
          const { value, done: over } = await reader.read();
          if (done) return;
          if (over) {
            finish();
            c.close();
          } else c.enqueue(value);
        } catch (err) {
          if (done) return;
          finish();
          c.error(err);
        }
      },
      cancel: (reason) => {
        finish();
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }

  /**
   * The server is leaving: every tracked stream gets its last frame and closes, every socket and
   * long poll is told. Synchronous, idempotent.
   */
  goingAway(): void {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort(new Error("the server is shutting down"));
    const ends = [...this.#ends];
    this.#ends.clear();
    for (const end of ends) {
      try {
        end();
      } catch { /* one broken stream must not keep the others open */ }
    }
  }
}
