// One agent run in memory: its event sequence, its listeners (SSE connections), its abort
// signal and the assistant message it is writing. Invariants: seq numbers are consecutive from
// 1; every event is journaled, one write at a time in seq order (each write starts once the
// previous one settled), while live listeners get it at once from memory — a reader of the
// journal first awaits `journaled()` (sse.ts), so it never misses what listeners already saw;
// after `end()` begins nothing more is emitted; its final events reach listeners only once they
// are committed with the run's status; token deltas go through the coalescer, and any other
// event flushes it first so order is exact. Saves of the streaming answer are serialized too.
import type { ChatEvent, SequencedEvent } from "../shared/chat_events.ts";
import type { AsyncQueries, Db } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";
import { appendMessages, type MessageToolCall, updateMessage } from "../sessions/messages.ts";
import { type EventAppender, finishStream, type StreamStatus } from "./journal.ts";
import { type Coalescer, createCoalescer, type DeltaKind } from "./coalescer.ts";

export type RunListener = (e: SequencedEvent) => void;

export interface RunDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  append: EventAppender;
  /** How often (ms) a streaming assistant message is written to the transcript. */
  persistIntervalMs: number;
}

export interface RunInit {
  streamId: string;
  sessionId: string;
  turnId: string;
  startSeq?: number;
}

/**
 * The assistant message of the current step, grown in place and written to the transcript
 * at most every `persistIntervalMs` (and at every boundary), so a crash loses little.
 */
export class AssistantDraft {
  idx: number | null = null;
  content = "";
  reasoning = "";
  toolCalls: MessageToolCall[] = [];
  private dirty = false;
  private lastWrite = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private run: Run, private deps: RunDeps) {}

  get isEmpty(): boolean {
    return !this.content && !this.reasoning && this.toolCalls.length === 0;
  }

  add(kind: DeltaKind, text: string): void {
    if (kind === "token") this.content += text;
    else this.reasoning += text;
    this.dirty = true;
    const due = this.lastWrite + this.deps.persistIntervalMs - performance.now();
    if (due <= 0) void this.persist();
    else this.timer ??= setTimeout(() => void this.persist(), due);
  }

  setToolCalls(calls: MessageToolCall[]): void {
    this.toolCalls = calls;
    this.dirty = true;
  }

  /**
   * Write the message (appending it on first write), queued after the run's earlier saves so
   * rows land in order; resolves once written. Safe to call often. Once the run has ended
   * (or is ending) it writes nothing: `end()` and `halt()` save the last state themselves.
   */
  persist(): Promise<void> {
    this.stopTimer();
    if (this.run.finished) return this.run.saved();
    return this.run.queueSave(() => this.save(this.deps.db));
  }

  /**
   * Write the message now on `q` (Run.end's transaction, halt), not queued: the caller has
   * awaited the run's queued saves first.
   */
  async save(q: AsyncQueries): Promise<void> {
    this.stopTimer();
    if (!this.dirty || this.isEmpty) return;
    this.dirty = false;
    this.lastWrite = performance.now();
    const fields = {
      content: this.content,
      ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      ...(this.toolCalls.length ? { tool_calls: this.toolCalls } : {}),
    };
    try {
      if (this.idx === null) {
        const [m] = await appendMessages(q, this.deps.clock, this.run.sessionId, [{
          role: "assistant",
          turn_id: this.run.turnId,
          ...fields,
        }]);
        this.idx = m.idx;
      } else {
        await updateMessage(q, this.run.sessionId, this.idx, fields);
      }
    } catch (err) {
      this.deps.log.error("could not save the streaming assistant message", {
        session_id: this.run.sessionId,
        error: String(err),
      });
    }
  }

  /** Stop the timer without writing (after the run ended). */
  dispose(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export class Run {
  readonly streamId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly controller = new AbortController();
  seq: number;
  finished = false;
  status: StreamStatus = "running";
  draft: AssistantDraft | null = null;
  /** The tool call being executed right now (cancel marks it as an error). */
  activeToolCallId: string | null = null;
  /** Resolves when the agent loop has returned (set by the manager). */
  done: Promise<void> = Promise.resolve();
  /**
   * Streams of delegated sub-tasks running under this run right now (child_run.ts). They live in
   * this process too, so their leases are renewed with this run's.
   */
  readonly childStreams = new Set<string>();
  private listeners = new Set<RunListener>();
  private enders = new Set<() => void>();
  private listenersClosed = false;
  private coalescer: Coalescer;
  /** The journal writes, chained: settles once every event emitted so far is written. */
  private journal: Promise<void> = Promise.resolve();
  private journalFailed = false;
  /** The streaming answer's saves, chained (AssistantDraft.persist). */
  private saves: Promise<void> = Promise.resolve();
  /** Work this run's end waits for: the ends of child runs its cancel cancelled (holdEnd). */
  private endHolds = new Set<Promise<unknown>>();

  constructor(private deps: RunDeps, init: RunInit) {
    this.streamId = init.streamId;
    this.sessionId = init.sessionId;
    this.turnId = init.turnId;
    this.seq = init.startSeq ?? 0;
    this.coalescer = createCoalescer((kind, text) => this.write({ event: kind, data: { text } }));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Whether listeners still hear this run: true until its end (final events included) or halt
   * has been delivered. A run that is `finished` may still be streaming its final events.
   */
  get streaming(): boolean {
    return !this.listenersClosed;
  }

  /**
   * Settles once every event emitted so far is in the journal (or its write failed, which
   * stopped the run). Never rejects.
   */
  journaled(): Promise<void> {
    return this.journal;
  }

  /** Settles once every save of the streaming answer queued so far is done. Never rejects. */
  saved(): Promise<void> {
    return this.saves;
  }

  /**
   * Make this run's end wait for `work` (never rejecting): a delegate child cancelled with its
   * parent is recorded cancelled before the parent's final `cancel` is, so whoever hears the
   * parent's cancel finds the child stopped too.
   */
  holdEnd(work: Promise<unknown>): void {
    const held = work.catch(() => {}).finally(() => this.endHolds.delete(held));
    this.endHolds.add(held);
  }

  /** Queue a save of the streaming answer after the earlier ones (AssistantDraft.persist). */
  queueSave(fn: () => Promise<void>): Promise<void> {
    this.saves = this.saves.then(fn).catch((err) => {
      this.deps.log.error("could not save the streaming assistant message", {
        session_id: this.sessionId,
        error: String(err),
      });
    });
    return this.saves;
  }

  /** A fresh draft for the next model step (the previous one is saved first, in order). */
  newDraft(): AssistantDraft {
    void this.draft?.persist();
    this.draft = new AssistantDraft(this, this.deps);
    return this.draft;
  }

  /** Stream a text or reasoning delta (coalesced) and grow the draft. */
  delta(kind: DeltaKind, text: string): void {
    if (this.finished || !text) return;
    this.draft?.add(kind, text);
    this.coalescer.push(kind, text);
  }

  /** Emit one event (pending deltas go first). Ignored once the run has ended. */
  emit(e: ChatEvent): void {
    if (this.finished) return;
    this.coalescer.flush();
    this.write(e);
  }

  private write(e: ChatEvent): void {
    if (this.finished) return;
    const seq = ++this.seq;
    // After the previous write settled, so events land in seq order; a failure is handled here
    // and the next write still runs (the chain never rejects).
    this.journal = this.journal
      .then(() => this.deps.append(this.streamId, seq, e))
      .catch((err) => this.onJournalError(err));
    this.deliver({ ...e, seq } as SequencedEvent);
  }

  /**
   * A journal that refuses writes (the session was deleted mid-run, the disk is full) stops the
   * run: reported once; if the run is already ending or halting, that path records the end.
   */
  private onJournalError(err: unknown): void {
    if (this.journalFailed) return;
    this.journalFailed = true;
    this.deps.log.error("could not journal a run event; stopping the run", {
      stream_id: this.streamId,
      error: String(err),
    });
    if (this.finished) return;
    this.finished = true;
    this.status = "error";
    this.coalescer.close();
    this.draft?.dispose();
    this.controller.abort(new Error("journal unavailable"));
    this.closeListeners();
  }

  private deliver(sequenced: SequencedEvent): void {
    for (const l of this.listeners) {
      try {
        l(sequenced);
      } catch (err) {
        this.deps.log.warn("stream listener failed", { error: String(err) });
      }
    }
  }

  /**
   * Listen to live events (the caller replays the journal for the past). `onEnd` is called
   * once when the run stops emitting for good (after its final events).
   */
  subscribe(listener: RunListener, onEnd?: () => void): () => void {
    if (this.listenersClosed) {
      // Already over: nothing more will come.
      if (onEnd) queueMicrotask(onEnd);
      return () => {};
    }
    this.listeners.add(listener);
    if (onEnd) this.enders.add(onEnd);
    return () => {
      this.listeners.delete(listener);
      if (onEnd) this.enders.delete(onEnd);
    };
  }

  private closeListeners(): void {
    this.listenersClosed = true;
    const enders = [...this.enders];
    this.listeners.clear();
    this.enders.clear();
    for (const fn of enders) {
      try {
        fn();
      } catch { /* ignore */ }
    }
  }

  /**
   * End the run: flush deltas, write the partial answer, emit the final events, record the
   * status and free the session. Resolves false if it had already ended (or was ending).
   * Nothing is emitted once it began; the events emitted before are in the journal before the
   * final transaction starts.
   */
  async end(status: Exclude<StreamStatus, "running">, finalEvents: ChatEvent[]): Promise<boolean> {
    if (this.finished) return false;
    this.coalescer.flush();
    this.finished = true;
    this.status = status;
    this.coalescer.close();
    const finals = finalEvents.map((e) => ({ ...e, seq: ++this.seq }) as SequencedEvent);
    let committed = false;
    try {
      // Every earlier event journaled, no save of the answer in flight: inside the transaction
      // a statement on `db` would wait for it (SQLite's one connection) or see another snapshot.
      await this.journal;
      await this.saves;
      await Promise.all([...this.endHolds]);
      // One transaction from the saved answer to the freed session: a replica following this
      // run hears its final events (NOTIFY leaves at commit) only once the answer is stored and
      // the session is free, so the next message sent there is never refused as still running.
      await this.deps.db.transaction(async (tx) => {
        await this.draft?.save(tx);
        for (const e of finals) await this.deps.append(this.streamId, e.seq, e, tx);
        await finishStream(tx, this.deps.clock, this.streamId, status);
      });
      committed = true;
    } catch (err) {
      this.deps.log.error("could not record the end of a run", { error: String(err) });
      try {
        // At least free the session (what the transaction held was rolled back).
        await finishStream(this.deps.db, this.deps.clock, this.streamId, status);
      } catch { /* the database refuses writes: the next start's recovery closes the run */ }
    }
    // Listeners hear the final events once they are stored (nothing is sent that a reconnect
    // could not replay), and the session they announce free is free.
    if (committed) { for (const e of finals) this.deliver(e); }
    this.draft?.dispose();
    this.closeListeners();
    return true;
  }

  /**
   * Stop without a final event (server shutdown): save the partial answer and leave the
   * stream `running`, so the next start marks it interrupted. Resolves once the events emitted
   * so far and the answer are written.
   */
  async halt(): Promise<void> {
    if (this.finished) return;
    this.coalescer.flush();
    this.finished = true;
    this.coalescer.close();
    this.controller.abort(new Error("server shutdown"));
    try {
      await this.journal;
      await this.saves;
      await this.draft?.save(this.deps.db);
    } finally {
      this.draft?.dispose();
      this.closeListeners();
    }
  }
}
