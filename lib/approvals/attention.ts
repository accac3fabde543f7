// What needs the person now, across every chat: pending approvals and open clarifying questions
// ("needs you"), the runs in progress ("working"), and how runs a page saw running have ended.
// The tab title, favicon and system notifications follow it (lib/browser/attention.ts).
// Invariants: read-only; hidden child sessions (delegates, side questions) count as the chat
// they belong to; only session ids, stream ids and titles leave, never message content.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { answerable } from "./approvals.ts";
import type { ClarifyHub } from "./clarify.ts";

export interface AttentionChat {
  session_id: string;
  title: string;
}

export interface Attention {
  /** Chats whose agent waits on the person, oldest first, each once. */
  waiting: Array<AttentionChat & { kind: "approval" | "clarify" }>;
  /** Chats with a run in progress. */
  running: Array<AttentionChat & { stream_id: string }>;
  /** The asked-for streams (`streams`) that are no longer running, with how they ended. */
  ended: Array<AttentionChat & { stream_id: string; status: string }>;
}

/** Most stream ids one request may ask about. */
export const MAX_WATCHED_STREAMS = 50;

/** The visible chat a session belongs to: itself, or the parent of a hidden child (any depth). */
async function visibleChat(db: AsyncQueries, sessionId: string): Promise<AttentionChat | null> {
  let id = sessionId;
  for (let depth = 0; depth < 16; depth++) {
    const row = await db.get<{
      session_id: string;
      title: string;
      parent_session_id: string | null;
      delegate_call_id: string | null;
    }>(
      sql`SELECT session_id, title, parent_session_id, delegate_call_id FROM sessions
          WHERE session_id = ${id}`,
    );
    if (!row) return null;
    if (row.delegate_call_id === null || !row.parent_session_id) {
      return { session_id: row.session_id, title: row.title };
    }
    id = row.parent_session_id;
  }
  return null;
}

/** What needs the person now; `streams` are stream ids the caller saw running. */
export async function readAttention(
  db: AsyncQueries,
  clarify: ClarifyHub,
  streams: string[] = [],
): Promise<Attention> {
  const waiting: Attention["waiting"] = [];
  const seen = new Set<string>();
  const wait = async (sessionId: string, kind: "approval" | "clarify") => {
    const chat = await visibleChat(db, sessionId);
    if (!chat || seen.has(chat.session_id)) return;
    seen.add(chat.session_id);
    waiting.push({ ...chat, kind });
  };
  const pending = await db.all<{ session_id: string }>(
    sql`SELECT session_id FROM approvals WHERE ${answerable()}
        GROUP BY session_id ORDER BY MIN(created_at)`,
  );
  for (const row of pending) await wait(row.session_id, "approval");
  // Copied first: the open questions may change while the lookups above and below await.
  for (const sessionId of [...clarify.open.keys()]) await wait(sessionId, "clarify");

  const running = (await db.all<{ stream_id: string; session_id: string; title: string }>(
    sql`SELECT st.stream_id, s.session_id, s.title FROM streams st
        JOIN sessions s ON s.session_id = st.session_id
        WHERE st.status = 'running' AND s.delegate_call_id IS NULL
        ORDER BY st.started_at`,
  )).map((r) => ({
    stream_id: String(r.stream_id),
    session_id: String(r.session_id),
    title: String(r.title),
  }));

  const ended: Attention["ended"] = [];
  const watched = [...new Set(streams.slice(0, MAX_WATCHED_STREAMS))];
  const rows = watched.length === 0 ? [] : await db.all<
    { stream_id: string; session_id: string; status: string }
  >(
    sql`SELECT stream_id, session_id, status FROM streams
        WHERE stream_id IN (${sql.join(watched.map((id) => sql`${id}`))})`,
  );
  const byId = new Map(rows.map((r) => [r.stream_id, r]));
  for (const id of watched) {
    const row = byId.get(id);
    if (!row || row.status === "running") continue;
    const chat = await visibleChat(db, row.session_id);
    if (chat) ended.push({ ...chat, stream_id: id, status: row.status });
  }
  return { waiting, running, ended };
}
