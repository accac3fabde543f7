// Delegate sessions: the hidden child session a `delegate` tool call runs its sub-task in.
// Invariants: a child has parent_session_id = the parent and delegate_call_id = the parent's
// tool call (never NULL for a child, always NULL for a normal session or a fork); it inherits
// the parent's workspace, model, profile and personality but none of its messages.
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import { createSession, type SessionRow } from "./sessions.ts";

/** What the session list must exclude so delegate children never show in the sidebar. */
export const NOT_DELEGATE_CHILD_SQL = "delegate_call_id IS NULL";

export interface DelegateSessionInput {
  parent: SessionRow;
  /** The parent's `delegate` tool call. */
  toolCallId: string;
  model: string;
  modelProvider: string | null;
  title: string;
}

/** Create the child session of a delegate call (no messages yet). */
export async function createDelegateSession(
  db: AsyncQueries,
  clock: Clock,
  input: DelegateSessionInput,
): Promise<SessionRow> {
  const child = await createSession(db, clock, {
    title: input.title,
    workspace: input.parent.workspace,
    model: input.model,
    model_provider: input.modelProvider,
    parent_session_id: input.parent.session_id,
  });
  // Set in the same breath as the insert; a list read in between would only see an empty,
  // scratch session (which the list hides anyway).
  const parentId = input.parent.session_id;
  await db.run(sql`UPDATE sessions SET delegate_call_id = ${input.toolCallId},
       profile = (SELECT profile FROM sessions WHERE session_id = ${parentId}),
       personality = (SELECT personality FROM sessions WHERE session_id = ${parentId})
     WHERE session_id = ${child.session_id}`);
  return child;
}

/** The child session a parent's delegate call ran in, if any. */
export async function delegateChildOf(
  db: AsyncQueries,
  parentSessionId: string,
  toolCallId: string,
): Promise<string | null> {
  const row = await db.get<{ session_id: string }>(
    sql`SELECT session_id FROM sessions
     WHERE parent_session_id = ${parentSessionId} AND delegate_call_id = ${toolCallId}
     ORDER BY created_at DESC LIMIT 1`,
  );
  return row?.session_id ?? null;
}

/** Whether a session is a delegate child (hidden; not a conversation of its own). */
export async function isDelegateChild(db: AsyncQueries, sessionId: string): Promise<boolean> {
  const row = await db.get<{ delegate_call_id: string | null }>(
    sql`SELECT delegate_call_id FROM sessions WHERE session_id = ${sessionId}`,
  );
  return !!row?.delegate_call_id;
}

/** One recorded call of a delegate child, as the nested tool card shows it. */
export interface DelegateChildCall {
  tool_call_id: string;
  name: string;
  args: Record<string, unknown>;
  status: string;
  result: string | null;
  duration: number | null;
}

/** The child session of a parent's delegate call and its tool calls, in order; null if none. */
export async function delegateChildCalls(
  db: AsyncQueries,
  parentSessionId: string,
  toolCallId: string,
): Promise<{ child_session_id: string; tool_calls: DelegateChildCall[] } | null> {
  const child = await delegateChildOf(db, parentSessionId, toolCallId);
  if (!child) return null;
  const rows = await db.all(
    sql`SELECT tool_call_id, name, args, status, result, duration FROM tool_calls
     WHERE session_id = ${child} ORDER BY started_at, rowid`,
  );
  return {
    child_session_id: child,
    tool_calls: rows.map((r) => {
      let args: Record<string, unknown> = {};
      try {
        const parsed = JSON.parse(String(r.args ?? "{}"));
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args = parsed;
      } catch { /* a malformed row shows without arguments */ }
      return {
        tool_call_id: String(r.tool_call_id),
        name: String(r.name),
        args,
        status: String(r.status),
        result: typeof r.result === "string" ? r.result : null,
        duration: typeof r.duration === "number" ? r.duration : null,
      };
    }),
  };
}
