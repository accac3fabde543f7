// The approval inbox: every session's pending approvals in one list ("3 agents are waiting on
// you"), oldest first, each with its chat's title. Read-only: answering goes through
// resolveApproval() as for a single session; a session's FIFO order is kept within the list.
import type { Db } from "../storage/db.ts";
import { parseJsonColumn } from "../storage/db.ts";
import type { Approval } from "./approvals.ts";

export interface InboxItem extends Approval {
  session_title: string;
  /** 1-based place in its session's queue (only the first one is what the agent waits on now). */
  position: number;
}

export interface Inbox {
  approvals: InboxItem[];
  /** Pending approvals in all. */
  count: number;
  /** Distinct sessions (agents) waiting. */
  sessions: number;
}

/** Most approvals listed at once (the count still says how many there are). */
export const INBOX_LIMIT = 200;

/** Every pending approval across sessions, oldest first. */
export function approvalInbox(db: Db): Inbox {
  const rows = db.prepare(
    `SELECT a.*, s.title AS session_title FROM approvals a
     JOIN sessions s ON s.session_id = a.session_id
     WHERE a.status = 'pending' ORDER BY a.created_at, a.rowid LIMIT ?`,
  ).all(INBOX_LIMIT) as Record<string, unknown>[];
  const { n, k } = db.prepare(
    `SELECT COUNT(*) AS n, COUNT(DISTINCT session_id) AS k FROM approvals WHERE status = 'pending'`,
  ).get() as { n: number; k: number };
  const seen = new Map<string, number>();
  const approvals = rows.map((r) => {
    const sid = r.session_id as string;
    const position = (seen.get(sid) ?? 0) + 1;
    seen.set(sid, position);
    return {
      approval_id: r.approval_id as string,
      session_id: sid,
      stream_id: (r.stream_id as string | null) ?? null,
      command: r.command as string,
      description: r.description as string,
      pattern_key: r.pattern_key as string,
      pattern_keys: parseJsonColumn<string[]>(r.pattern_keys, []),
      created_at: r.created_at as number,
      session_title: r.session_title as string,
      position,
    };
  });
  return { approvals, count: n, sessions: k };
}
