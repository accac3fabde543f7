// The approval inbox: every session's pending approvals in one list ("3 agents are waiting on
// you"), oldest first, each with its chat's title. Read-only: answering goes through
// resolveApproval() as for a single session; a session's FIFO order is kept within the list.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { answerable, type Approval, type ApprovalRow, rowToApproval } from "./approvals.ts";

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

type InboxRow = ApprovalRow & { session_title: string };

/** Every pending approval across sessions, oldest first. */
export async function approvalInbox(db: AsyncQueries): Promise<Inbox> {
  const rows = await db.all<InboxRow>(
    sql`SELECT a.approval_id, a.session_id, a.stream_id, a.command, a.description,
          a.pattern_key, a.pattern_keys, a.created_at, s.title AS session_title
        FROM approvals a JOIN sessions s ON s.session_id = a.session_id
        WHERE ${answerable("a")} ORDER BY a.created_at, a.rowid LIMIT ${INBOX_LIMIT}`,
  );
  const totals = await db.get<{ n: number; k: number }>(
    sql`SELECT COUNT(*) AS n, COUNT(DISTINCT session_id) AS k FROM approvals
        WHERE ${answerable()}`,
  );
  const seen = new Map<string, number>();
  const approvals = rows.map((r) => {
    const position = (seen.get(r.session_id) ?? 0) + 1;
    seen.set(r.session_id, position);
    return { ...rowToApproval(r), session_title: r.session_title, position };
  });
  return { approvals, count: Number(totals?.n ?? 0), sessions: Number(totals?.k ?? 0) };
}
