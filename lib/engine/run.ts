// One agent run in memory: its event sequence, its listeners (SSE connections), its abort
// signal and the assistant message it is writing. Invariants: every event is journaled before
// any listener sees it; seq numbers are consecutive from 1; after `end()` nothing more is
// emitted or written; token deltas go through the coalescer, and any other event flushes it
// first so order is exact.
import type { ChatEvent, SequencedEvent } from "../shared/chat_events.ts";
import { type Db, transaction } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";
import { appendMessages, type MessageToolCall, updateMessage } from "../sessions/messages.ts";
import { finishStream, type StreamStatus } from "./journal.ts";
import { type Coalescer, createCoalescer, type DeltaKind } from "./coalescer.ts";

export type RunListener = (e: SequencedEvent) => void;

export interface RunDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  append: (streamId: string, seq: number, e: ChatEvent) => void;
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
    if (due <= 0) this.persist();
    else this.timer ??= setTimeout(() => this.persist(), due);
  }

  setToolCalls(calls: MessageToolCall[]): void {
    this.toolCalls = calls;
    this.dirty = true;
  }

  /** Write the message now (appending it on first write). Safe to call often. */
  persist(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
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
        const [m] = appendMessages(this.deps.db, this.deps.clock, this.run.sessionId, [{
          role: "assistant",
          turn_id: this.run.turnId,
          ...fields,
        }]);
        this.idx = m.idx;
      } else {
        updateMessage(this.deps.db, this.run.sessionId, this.idx, fields);
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
  private coalescer: Coalescer;

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

  /** A fresh draft for the next model step (the previous one is written first). */
  newDraft(): AssistantDraft {
    this.draft?.persist();
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
    try {
      this.deps.append(this.streamId, seq, e);
    } catch (err) {
      // Nothing may be sent that is not journaled: a journal that refuses writes (the session
      // was deleted mid-run, the disk is full) stops the run here.
      this.deps.log.error("could not journal a run event; stopping the run", {
        stream_id: this.streamId,
        error: String(err),
      });
      this.seq--;
      this.finished = true;
      this.status = "error";
      this.coalescer.close();
      this.draft?.dispose();
      this.controller.abort(new Error("journal unavailable"));
      this.closeListeners();
      return;
    }
    const sequenced = { ...e, seq } as SequencedEvent;
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
    this.listeners.add(listener);
    if (onEnd) this.enders.add(onEnd);
    return () => {
      this.listeners.delete(listener);
      if (onEnd) this.enders.delete(onEnd);
    };
  }

  private closeListeners(): void {
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
   * status and free the session. Returns false if it had already ended.
   */
  end(status: Exclude<StreamStatus, "running">, finalEvents: ChatEvent[]): boolean {
    if (this.finished) return false;
    this.coalescer.flush();
    // One transaction from the saved answer to the freed session: a replica following this run
    // hears its final events (NOTIFY leaves at commit) only once the answer is stored and the
    // session is free, so the next message sent there is never refused as still running.
    try {
      transaction(this.deps.db, () => {
        this.draft?.persist();
        for (const e of finalEvents) this.write(e);
        this.finished = true;
        this.status = status;
        finishStream(this.deps.db, this.deps.clock, this.streamId, status);
      });
    } catch (err) {
      this.deps.log.error("could not record the end of a run", { error: String(err) });
      try {
        // At least free the session (what the transaction held was rolled back).
        finishStream(this.deps.db, this.deps.clock, this.streamId, status);
      } catch { /* the database refuses writes: the next start's recovery closes the run */ }
    }
    this.finished = true;
    this.status = status;
    this.coalescer.close();
    this.draft?.dispose();
    this.closeListeners();
    return true;
  }

  /**
   * Stop without a final event (server shutdown): save the partial answer and leave the
   * stream `running`, so the next start marks it interrupted.
   */
  halt(): void {
    if (this.finished) return;
    this.coalescer.flush();
    this.draft?.persist();
    this.finished = true;
    this.coalescer.close();
    this.draft?.dispose();
    this.controller.abort(new Error("server shutdown"));
    this.closeListeners();
  }
}
