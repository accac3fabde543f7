// Side sessions: the hidden children a session's `/btw` side question and `/background` tasks
// run in. Invariants: a side child has parent_session_id = its parent and a delegate_call_id of
// `btw:<id>` or `bg:<id>` — the marker delegate children already use, so the sidebar's partial
// index, counts and the parent's delete cascade (lib/storage/db.ts) treat it the same way with
// no new migration; it starts with a copy of the parent's settled context, never a live step.
import { type Db, transaction } from "../storage/db.ts";
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
  db: Db,
  clock: Clock,
  input: { parentId: string; kind: SideKind; id: string; title: string; withContext: boolean },
): SessionRow {
  return transaction(db, () => {
    const parent = getSession(db, input.parentId);
    const child = createSession(db, clock, {
      title: normalizeTitle(input.title),
      workspace: parent.workspace,
      model: parent.model,
      model_provider: parent.model_provider,
      parent_session_id: parent.session_id,
    });
    db.prepare(
      `UPDATE sessions SET delegate_call_id = ?,
         profile = (SELECT profile FROM sessions WHERE session_id = ?),
         personality = (SELECT personality FROM sessions WHERE session_id = ?)
       WHERE session_id = ?`,
    ).run(sideMarker(input.kind, input.id), parent.session_id, parent.session_id, child.session_id);
    if (input.withContext) {
      const msgs = settledContext(listMessages(db, parent.session_id));
      insertMessageRows(db, child.session_id, msgs.map((m, i) => ({ ...m, idx: i })));
      syncMessageStats(db, child.session_id, clock());
    }
    return getSession(db, child.session_id);
  });
}

/** The side kind of a session (null for a normal session or a delegate child). */
export function sideKindOf(db: Db, sessionId: string): SideKind | null {
  const row = db.prepare("SELECT delegate_call_id AS m FROM sessions WHERE session_id = ?").get(
    sessionId,
  ) as { m: string | null } | undefined;
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
export function listSideChildren(db: Db, parentId: string, kind: SideKind): SideChild[] {
  return db.prepare(
    `SELECT session_id, delegate_call_id AS marker, title, created_at, active_stream_id
     FROM sessions WHERE parent_session_id = ? AND delegate_call_id LIKE ?
     ORDER BY created_at, session_id`,
  ).all(parentId, `${kind}:%`) as unknown as SideChild[];
}
