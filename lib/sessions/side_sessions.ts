// Side sessions: the hidden children a session's `/btw` side question and `/background` tasks
// run in. Invariants: a side child has parent_session_id = its parent and a delegate_call_id of
// `btw:<id>` or `bg:<id>` — the marker delegate children already use, so the sidebar's partial
// index, counts and the parent's delete cascade (lib/storage/db.ts) treat it the same way with
// no new migration; it starts with a copy of the parent's settled context, never a live step.
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import {
  insertMessageRows,
  listMessages,
  type StoredMessage,
  syncMessageStats,
} from "./messages.ts";
import { createSession, getSession, normalizeTitle, type SessionRow } from "./sessions.ts";

export type SideKind = "btw" | "bg";

/** The delegate_call_id of a side child of `kind`. */
export const sideMarker = (kind: SideKind, id: string): string => `${kind}:${id}`;

/**
 * The parent's messages without an unfinished tail: a copy taken mid-run must not end in an
 * assistant tool call whose result is not written yet (providers refuse such a history).
 */
export function settledContext(messages: StoredMessage[]): StoredMessage[] {
  const pending = new Set<string>();
  let openedAt = messages.length;
  messages.forEach((m, i) => {
    if (m.role === "assistant" && m.tool_calls?.length) {
      if (pending.size === 0) openedAt = i;
      for (const c of m.tool_calls) pending.add(c.id);
    } else if (m.role === "tool" && m.tool_call_id) pending.delete(m.tool_call_id);
  });
  return pending.size ? messages.slice(0, openedAt) : messages;
}

/** Create a hidden side child of `parentId`, optionally holding the parent's context. */
export function createSideSession(
  db: AsyncQueries,
  clock: Clock,
  input: { parentId: string; kind: SideKind; id: string; title: string; withContext: boolean },
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const parent = await getSession(tx, input.parentId);
    const child = await createSession(tx, clock, {
      title: normalizeTitle(input.title),
      workspace: parent.workspace,
      model: parent.model,
      model_provider: parent.model_provider,
      parent_session_id: parent.session_id,
    });
    await tx.run(sql`UPDATE sessions SET delegate_call_id = ${sideMarker(input.kind, input.id)},
         profile = (SELECT profile FROM sessions WHERE session_id = ${parent.session_id}),
         personality = (SELECT personality FROM sessions WHERE session_id = ${parent.session_id})
       WHERE session_id = ${child.session_id}`);
    if (input.withContext) {
      const msgs = settledContext(await listMessages(tx, parent.session_id));
      await insertMessageRows(tx, child.session_id, msgs.map((m, i) => ({ ...m, idx: i })));
      await syncMessageStats(tx, child.session_id, clock());
    }
    return await getSession(tx, child.session_id);
  });
}

/** The side kind of a session (null for a normal session or a delegate child). */
export async function sideKindOf(db: AsyncQueries, sessionId: string): Promise<SideKind | null> {
  const row = await db.get<{ m: string | null }>(
    sql`SELECT delegate_call_id AS m FROM sessions WHERE session_id = ${sessionId}`,
  );
  const m = row?.m ?? "";
  return m.startsWith("btw:") ? "btw" : m.startsWith("bg:") ? "bg" : null;
}

/** One side child as the background list shows it. */
export interface SideChild {
  session_id: string;
  marker: string;
  title: string;
  created_at: number;
  active_stream_id: string | null;
}

/** The side children of `kind` under `parentId`, oldest first. */
export function listSideChildren(
  db: AsyncQueries,
  parentId: string,
  kind: SideKind,
): Promise<SideChild[]> {
  return db.all<SideChild>(
    sql`SELECT session_id, delegate_call_id AS marker, title, created_at, active_stream_id
     FROM sessions WHERE parent_session_id = ${parentId} AND delegate_call_id LIKE ${`${kind}:%`}
     ORDER BY created_at, session_id`,
  );
}
