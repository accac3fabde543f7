// Steering a busy run: notes the user sends while the agent works, delivered before its next
// model step. Invariants: an inbox exists only while a chat loop runs (compress runs have none);
// a note is accepted only while the inbox is open, and every accepted note is persisted as a
// user message (`steer: true`, no turn_id) before the model request that sees it, so history and reload agree.
import type { AsyncQueries } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import { appendMessages } from "../sessions/messages.ts";
import type { Run } from "./run.ts";

/** Longest steer note accepted (characters); the composer's own limit is far below. */
export const MAX_STEER_CHARS = 20_000;

interface Inbox {
  notes: string[];
  open: boolean;
}

// Keyed by the Run object: the inbox dies with the run, and run.ts needs no new field.
const inboxes = new WeakMap<Run, Inbox>();

/** Called by the chat loop when it starts: from now on the run accepts steer notes. */
export function openSteerInbox(run: Run): void {
  if (!inboxes.has(run)) inboxes.set(run, { notes: [], open: true });
}

/** Queue a note for the run's next model step. False when the run no longer takes notes. */
export function pushSteer(run: Run, text: string): boolean {
  const inbox = inboxes.get(run);
  if (!inbox || !inbox.open || run.finished) return false;
  inbox.notes.push(text);
  return true;
}

/** True when notes wait for delivery (the loop takes one more step instead of ending). */
export function steerPending(run: Run): boolean {
  return (inboxes.get(run)?.notes.length ?? 0) > 0;
}

/**
 * Deliver waiting notes: persist each as a user message of the running turn and tell
 * listeners (`steer` event). Returns how many were delivered (0 = nothing to reload).
 */
export async function drainSteer(run: Run, db: AsyncQueries, clock: Clock): Promise<number> {
  const inbox = inboxes.get(run);
  if (!inbox || inbox.notes.length === 0 || run.finished) return 0;
  const notes = inbox.notes.splice(0);
  const stored = await appendMessages(
    db,
    clock,
    run.sessionId,
    // No turn_id: the transcript keys turns by it, and a note starts a turn of its own there.
    notes.map((text) => ({ role: "user" as const, content: text, steer: true })),
  );
  for (const m of stored) {
    run.emit({ event: "steer", data: { idx: m.idx, text: m.content, timestamp: m.timestamp } });
  }
  return notes.length;
}

/**
 * The loop is ending: refuse later notes (the caller sends them as a normal message) and
 * persist any accepted note that never reached the model (step cap), so it is not lost.
 */
export async function closeSteerInbox(run: Run, db: AsyncQueries, clock: Clock): Promise<void> {
  const inbox = inboxes.get(run);
  if (!inbox) return;
  inbox.open = false;
  await drainSteer(run, db, clock);
}
