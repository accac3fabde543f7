// Token coalescing: text deltas that arrive within one tick of the event loop leave as ONE
// `token` (or `reasoning`) event, so a fast model does not flood the journal and the browser.
// Invariants: order is exact (a change of kind, or any other event, flushes what is pending
// first); no character is ever dropped or duplicated; a flush happens at most one macrotask
// after the first pending delta, so coalescing adds no more than a tick of latency. It uses
// setImmediate (µs), not setTimeout(0), which Deno clamps to ~1–2 ms.
import { clearImmediate, setImmediate } from "node:timers";

export type DeltaKind = "token" | "reasoning";

export interface Coalescer {
  /** Queue a delta; it is emitted at the end of the current tick (merged with its neighbours). */
  push(kind: DeltaKind, text: string): void;
  /** Emit whatever is pending now (call before emitting any other event). */
  flush(): void;
  /** Flush and stop the timer. Later pushes are emitted immediately. */
  close(): void;
}

/** A coalescer that hands merged deltas to `emit`. */
export function createCoalescer(emit: (kind: DeltaKind, text: string) => void): Coalescer {
  let kind: DeltaKind | null = null;
  let parts: string[] = [];
  let timer: ReturnType<typeof setImmediate> | undefined;
  let closed = false;

  const flush = () => {
    if (timer !== undefined) {
      clearImmediate(timer);
      timer = undefined;
    }
    if (kind === null || parts.length === 0) return;
    const k = kind;
    const text = parts.length === 1 ? parts[0] : parts.join("");
    kind = null;
    parts = [];
    emit(k, text);
  };

  return {
    push(k, text) {
      if (!text) return;
      if (closed) return emit(k, text);
      if (kind !== null && kind !== k) flush();
      kind = k;
      parts.push(text);
      timer ??= setImmediate(flush);
    },
    flush,
    close() {
      flush();
      closed = true;
    },
  };
}
