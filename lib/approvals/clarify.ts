// Clarifying questions: the agent asks the user something (optionally with choices) and the run
// waits for the answer from POST /api/clarify/respond. Invariants: at most one open question per
// session at a time (a newer one supersedes it); an answer to a question that is not open is a
// ConflictError (409); cancelling the run or the timeout settles the wait, never leaves it hanging.
import type { ChatEvent } from "../shared/chat_events.ts";
import { ConflictError } from "../errors.ts";
import { randomHex } from "../ids.ts";
import { systemTimers, type TimerHandle, type Timers } from "../timers.ts";

interface OpenQuestion {
  clarifyId: string;
  question: string;
  choices?: string[];
  settle(answer: string): void;
}

/** Per-app clarify state (hung off AppContext; nothing process-global). */
export interface ClarifyHub {
  open: Map<string, OpenQuestion>;
  timeoutMs: number;
  timers: Timers;
}

export const DEFAULT_CLARIFY_TIMEOUT_MS = 600_000;

export function createClarifyHub(opts: { timeoutMs?: number; timers?: Timers } = {}): ClarifyHub {
  return {
    open: new Map(),
    timeoutMs: opts.timeoutMs ?? DEFAULT_CLARIFY_TIMEOUT_MS,
    timers: opts.timers ?? systemTimers,
  };
}

export interface ClarifyRequest {
  sessionId: string;
  question: string;
  choices?: string[];
  emit?: (event: ChatEvent) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The answer text the tool returns when nobody answered. */
export const NO_ANSWER_PREFIX = "(no answer";

/**
 * Ask a question and wait for the user's answer. Emits `clarify {clarify_id, question,
 * choices?}` into the run. Settles with the answer, or with a "(no answer …)" text when the
 * timeout passes, the run is cancelled or a newer question replaces this one.
 */
export function askClarify(hub: ClarifyHub, req: ClarifyRequest): Promise<string> {
  const clarifyId = randomHex(16);
  const previous = hub.open.get(req.sessionId);
  previous?.settle(`${NO_ANSWER_PREFIX}: superseded by a newer question)`);
  if (req.signal?.aborted) return Promise.resolve(`${NO_ANSWER_PREFIX}: the run was cancelled)`);
  return new Promise<string>((resolve) => {
    let timer: TimerHandle | undefined;
    const onAbort = () => entry.settle(`${NO_ANSWER_PREFIX}: the run was cancelled)`);
    const entry: OpenQuestion = {
      clarifyId,
      question: req.question,
      choices: req.choices,
      settle(answer) {
        if (hub.open.get(req.sessionId) === entry) hub.open.delete(req.sessionId);
        if (timer !== undefined) hub.timers.clearTimeout(timer);
        timer = undefined;
        req.signal?.removeEventListener("abort", onAbort);
        resolve(answer);
      },
    };
    hub.open.set(req.sessionId, entry);
    const ms = req.timeoutMs ?? hub.timeoutMs;
    timer = hub.timers.setTimeout(
      () => entry.settle(`${NO_ANSWER_PREFIX} within ${Math.round(ms / 1000)} s; decide yourself)`),
      ms,
    );
    req.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      req.emit?.({
        event: "clarify",
        data: {
          clarify_id: clarifyId,
          question: req.question,
          ...(req.choices?.length ? { choices: req.choices } : {}),
        },
      });
    } catch { /* the stream may be gone; the question still waits for an answer */ }
  });
}

/** The open question of a session, if any (for a reloaded page). */
export function pendingClarify(
  hub: ClarifyHub,
  sessionId: string,
): { clarify_id: string; question: string; choices?: string[] } | null {
  const q = hub.open.get(sessionId);
  if (!q) return null;
  return {
    clarify_id: q.clarifyId,
    question: q.question,
    ...(q.choices ? { choices: q.choices } : {}),
  };
}

/**
 * Answer the session's open question. With `clarifyId`, it must be the open one; without, the
 * open one is answered. Nothing open (or a different id) → ConflictError.
 */
export function respondClarify(
  hub: ClarifyHub,
  req: { sessionId: string; clarifyId?: string; response: string },
): { ok: true; response: string } {
  const q = hub.open.get(req.sessionId);
  if (!q) {
    throw new ConflictError(`Session "${req.sessionId}" has no open clarifying question`);
  }
  if (req.clarifyId && req.clarifyId !== q.clarifyId) {
    throw new ConflictError(
      `Clarifying question "${req.clarifyId}" is no longer open in session "${req.sessionId}"`,
    );
  }
  q.settle(req.response);
  return { ok: true, response: req.response };
}

/** Release every waiting question (the app is closing). */
export function closeClarifyHub(hub: ClarifyHub): void {
  for (const q of [...hub.open.values()]) {
    q.settle(`${NO_ANSWER_PREFIX}: the server is shutting down)`);
  }
}
