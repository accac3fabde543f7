// Approvals queued by the test hook (GET /api/approval/inject_test) for a session id that is not
// a stored session: the original accepts any session id string there, and its clients then poll
// and answer it. Invariants: per app (keyed by its ApprovalHub), in memory only, never consulted
// by a run, so nothing here can approve a real command.
import type { Approval, ApprovalHub, ApprovalSnapshot } from "./approvals.ts";
import { randomHex } from "../ids.ts";
import { ValidationError } from "../errors.ts";

/** The original's bound on a session id in the approval routes. */
export const MAX_APPROVAL_SESSION_ID = 128;

/** A session id as the approval routes accept it: any string of 1–128 chars, else a 400. */
export function approvalSessionId(id: string): string {
  if (id.length === 0 || id.length > MAX_APPROVAL_SESSION_ID) {
    throw new ValidationError(
      `Invalid field "session_id": 1 to ${MAX_APPROVAL_SESSION_ID} characters`,
      "session_id",
    );
  }
  return id;
}

const queues = new WeakMap<ApprovalHub, Map<string, Approval[]>>();

function queueOf(hub: ApprovalHub, sessionId: string): Approval[] {
  let byId = queues.get(hub);
  if (!byId) queues.set(hub, byId = new Map());
  let q = byId.get(sessionId);
  if (!q) byId.set(sessionId, q = []);
  return q;
}

/** Queue a hook approval for a session id with no stored session. */
export function injectApproval(
  hub: ApprovalHub,
  now: number,
  input: { sessionId: string; command: string; description: string; patternKey: string },
): Approval {
  const approval: Approval = {
    approval_id: randomHex(16),
    session_id: input.sessionId,
    stream_id: null,
    command: input.command,
    description: input.description,
    pattern_key: input.patternKey,
    pattern_keys: [input.patternKey],
    created_at: now,
  };
  queueOf(hub, input.sessionId).push(approval);
  return approval;
}

/** The head of a hook queue and its length ({pending:null, pending_count:0} when none). */
export function injectedSnapshot(hub: ApprovalHub, sessionId: string): ApprovalSnapshot {
  const q = queues.get(hub)?.get(sessionId) ?? [];
  return { pending: q[0] ?? null, pending_count: q.length };
}

/** Answer the named (or head) hook approval; null when there was none to answer. */
export function answerInjected(
  hub: ApprovalHub,
  sessionId: string,
  approvalId?: string,
): Approval | null {
  const q = queues.get(hub)?.get(sessionId);
  if (!q || q.length === 0) return null;
  const i = approvalId ? q.findIndex((a) => a.approval_id === approvalId) : 0;
  if (i < 0) return null;
  const [answered] = q.splice(i, 1);
  if (q.length === 0) queues.get(hub)?.delete(sessionId);
  return answered;
}
