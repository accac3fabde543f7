// The sessions-list change feed: every create, rename, update, delete, pin, archive, move and
// run start/end publishes one `sessions_changed` event, which GET /api/sessions/events streams.
// Invariants: one hub per database (so two apps in one process share nothing); publishing never
// throws into the writer; a closed SSE connection unsubscribes at once (subscriberCount()
// returns to 0); each event carries a version that only grows, so clients can drop repeats.
import type { AsyncQueries, Db } from "../storage/db.ts";
import { busOf, CHANNELS } from "../replicas/bus.ts";

export type SessionsChangedReason =
  | "create"
  | "update"
  | "rename"
  | "delete"
  | "pin"
  | "archive"
  | "move"
  | "clear"
  | "run_start"
  | "run_end";

/** The payload of a `sessions_changed` event (the original's shape, plus `reason` and `title`). */
export interface SessionsChanged {
  type: "sessions_changed";
  version: number;
  reason: SessionsChangedReason;
  session_id?: string;
  /** A rename's new title (≤ 80 chars): the top bar follows it without reading the session. */
  title?: string;
}

type Listener = (e: SessionsChanged) => void;

/** Subscribers of one database's change feed. */
export class SessionEventsHub {
  #listeners = new Set<Listener>();
  #version = 0;
  #onClose = new Set<() => void>();

  /** Listen; returns the function that stops listening (idempotent). */
  subscribe(fn: Listener, onClose?: () => void): () => void {
    this.#listeners.add(fn);
    if (onClose) this.#onClose.add(onClose);
    return () => {
      this.#listeners.delete(fn);
      if (onClose) this.#onClose.delete(onClose);
    };
  }

  publish(reason: SessionsChangedReason, sessionId?: string, title?: string): void {
    const e: SessionsChanged = { type: "sessions_changed", version: ++this.#version, reason };
    if (sessionId) e.session_id = sessionId;
    if (title !== undefined) e.title = title;
    for (const fn of [...this.#listeners]) {
      try {
        fn(e);
      } catch { /* a broken subscriber must not fail the write that published */ }
    }
  }

  /** Run `fn` when the hub closes (the app shuts down). */
  onClose(fn: () => void): void {
    this.#onClose.add(fn);
  }

  /** Open subscriptions (a test checks it returns to 0 after connections close). */
  subscriberCount(): number {
    return this.#listeners.size;
  }

  get version(): number {
    return this.#version;
  }

  /** End every open stream (app shutdown). */
  close(): void {
    for (const fn of [...this.#onClose]) fn();
    this.#onClose.clear();
    this.#listeners.clear();
  }
}

const hubs = new WeakMap<Db, SessionEventsHub>();

/** The change feed of `db` (created on first use; keyed by the database, never process-wide). */
export function sessionEvents(db: Db): SessionEventsHub {
  let hub = hubs.get(db);
  if (!hub) {
    hub = new SessionEventsHub();
    hubs.set(db, hub);
    listenToOtherReplicas(db, hub);
  }
  return hub;
}

/**
 * With replicas sharing the database, a change made on another one reaches this process's
 * feed through the sessions channel (`<replica>|<reason>|<session_id>[|<title>]`, a title last
 * since it may hold "|"; this process's own changes were already published locally and are
 * skipped).
 */
function listenToOtherReplicas(db: Db, hub: SessionEventsHub): void {
  const bus = busOf(db);
  if (!bus.shared) return;
  let listening = false;
  const stop = bus.subscribe(CHANNELS.sessions, {
    signal(payload) {
      const [replica, reason, sessionId, ...title] = payload.split("|");
      if (replica === bus.replicaId) return;
      hub.publish(
        reason as SessionsChangedReason,
        sessionId || undefined,
        title.length ? title.join("|") : undefined,
      );
    },
    // Changes missed while the listener was away: one catch-all change makes clients re-read
    // (not at the first start of listening: nothing was missed before it).
    resync: () => {
      if (listening) hub.publish("update");
      listening = true;
    },
  });
  hub.onClose(stop);
}

/**
 * Publish a change of the sessions list of `db`. Cheap when nobody listens. `title`: a rename's
 * new title, carried by the event (a title is ≤ 80 chars, far below NOTIFY's payload cap).
 * `db` may be a transaction: other replicas then hear of the change when it commits.
 */
export async function publishSessionsChanged(
  db: AsyncQueries,
  reason: SessionsChangedReason,
  sessionId?: string,
  title?: string,
): Promise<void> {
  hubs.get(db.owner)?.publish(reason, sessionId, title);
  const bus = busOf(db.owner);
  if (bus.shared) {
    const tail = title === undefined ? "" : `|${title}`;
    try {
      await bus.publish(
        CHANNELS.sessions,
        `${bus.replicaId}|${reason}|${sessionId ?? ""}${tail}`,
        db,
      );
    } catch { /* a signal that cannot leave must not fail the write that published */ }
  }
}

const enc = new TextEncoder();

/**
 * The SSE response of GET /api/sessions/events: a `: connected` comment at once, then one
 * `sessions_changed` frame per change and a `: keepalive` comment every `keepAliveMs` (≤ 15 s).
 * Ends (and unsubscribes) when the client goes away, `signal` aborts or the hub closes.
 */
export function sessionEventsResponse(
  hub: SessionEventsHub | null,
  opts: {
    keepAliveMs?: number;
    signal?: AbortSignal;
    /**
     * More event sources on the same stream (the panel's `workspace_changed`): each is given a
     * sender and returns its unsubscribe, called when the stream ends. A null hub streams these
     * alone.
     */
    sources?: Array<
      (send: (event: string, data: unknown) => void, end: () => void) => Promise<() => void>
    >;
  } = {},
): Response {
  let unsubscribe = () => {};
  const extra: Array<() => void> = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    unsubscribe();
    for (const stop of extra.splice(0)) stop();
    opts.signal?.removeEventListener("abort", close);
    try {
      controller.close();
    } catch { /* already closed or cancelled */ }
  };
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(enc.encode(text));
    } catch {
      close();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (hub) {
        unsubscribe = hub.subscribe(
          (e) => write(`id: ${e.version}\nevent: sessions_changed\ndata: ${JSON.stringify(e)}\n\n`),
          close,
        );
      }
      for (const source of opts.sources ?? []) {
        source((event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`), close)
          .then((stop) => closed ? stop() : extra.push(stop))
          .catch(() => close());
      }
      write(": connected\n\n");
      timer = setInterval(() => write(": keepalive\n\n"), opts.keepAliveMs ?? 15_000);
      if (opts.signal?.aborted) close();
      else opts.signal?.addEventListener("abort", close);
    },
    cancel() {
      close();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}
