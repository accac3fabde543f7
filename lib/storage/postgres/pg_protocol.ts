// What the main thread and the PostgreSQL worker (pg_worker.ts) share: the layout of the shared
// answer buffer and the message shapes. Kept apart from the worker so the main thread never
// loads the worker's module (its npm client, its onmessage) by importing a constant.

/** Words at the head of the shared buffer (Int32 each), then the answer's bytes. */
// The number of the request whose answer the buffer holds (0: none yet). Each request carries its
// own number and its caller waits for that number, never for "an answer": an answer that is not
// its own (one written late for an earlier request) can never be taken for it.
export const STATE = 0;
export const LENGTH = 1; // byte length of the answer
export const HEADER_BYTES = 16;

export interface WorkerRequest {
  kind: "query" | "exec" | "close";
  text: string;
  params?: unknown[];
}

export type WorkerAnswer =
  | { ok: true; rows: Record<string, unknown>[]; count: number }
  | { ok: false; message: string; code?: string };
