// Answer variants: "regenerate" keeps the old answer of the session's last turn as a variant
// the person can flip back to (‹ 1/2 ›). Invariants: only the last turn has live variants (an
// older answer has later turns built on it); exactly one variant of a turn is in the transcript
// (its row has messages NULL), so the model always sees the chosen one; a flip swaps the
// transcript's tail and the turn's tool call records in one transaction.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import type { Clock } from "../ids.ts";
import {
  insertMessageRows,
  listMessages,
  type StoredMessage,
  syncMessageStats,
  truncateMessages,
} from "../sessions/messages.ts";
import { getSession } from "../sessions/sessions.ts";
import type { EngineHost } from "./engine_host.ts";
import type { RunManager, StartResult } from "./run_manager.ts";

/** The variants of the session's last turn, as the message actions show them. */
export interface VariantInfo {
  turn_id: string | null;
  /** How many answers the last turn has (1 when it was never regenerated). */
  count: number;
  /** The one in the transcript, 1-based. */
  current: number;
}

interface VariantRow {
  n: number;
  messages: string | null;
  tool_calls: string | null;
}

type ToolCallRow = Record<string, unknown>;

async function lastTurn(
  db: AsyncQueries,
  sessionId: string,
): Promise<{ user: StoredMessage; tail: StoredMessage[] } | null> {
  const msgs = await listMessages(db, sessionId);
  const user = msgs.findLast((m) => m.role === "user");
  if (!user) return null;
  return { user, tail: msgs.filter((m) => m.idx > user.idx) };
}

async function rows(db: AsyncQueries, sessionId: string, turnId: string): Promise<VariantRow[]> {
  const all = await db.all<VariantRow>(
    sql`SELECT n, messages, tool_calls FROM message_variants
        WHERE session_id = ${sessionId} AND turn_id = ${turnId} ORDER BY n`,
  );
  return all.map((r) => ({ ...r, n: Number(r.n) }));
}

async function turnToolCalls(
  db: AsyncQueries,
  sessionId: string,
  turnId: string,
): Promise<ToolCallRow[]> {
  const all = await db.all<ToolCallRow>(
    sql`SELECT * FROM tool_calls WHERE session_id = ${sessionId} AND turn_id = ${turnId}`,
  );
  // PostgreSQL's tables carry a generated `rowid` (SQLite's is hidden): not part of the record.
  return all.map(({ rowid: _rowid, ...r }) => r);
}

/** The variants of the last turn of `sessionId`. */
export async function variantInfo(db: AsyncQueries, sessionId: string): Promise<VariantInfo> {
  await getSession(db, sessionId);
  const turn = await lastTurn(db, sessionId);
  const turnId = turn?.user.turn_id ?? null;
  if (!turnId) return { turn_id: turnId, count: turn?.tail.length ? 1 : 0, current: 1 };
  const all = await rows(db, sessionId, turnId);
  if (!all.length) return { turn_id: turnId, count: turn!.tail.length ? 1 : 0, current: 1 };
  return {
    turn_id: turnId,
    count: all.length,
    current: all.findIndex((r) => r.messages === null) + 1 || all.length,
  };
}

/** Save the transcript's answer of the last turn into the variant row shown now. */
async function saveShown(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
  turnId: string,
  tail: StoredMessage[],
): Promise<void> {
  const all = await rows(db, sessionId, turnId);
  const shown = all.find((r) => r.messages === null)?.n ?? (all.length ? null : 1);
  const snapshot = JSON.stringify(tail.map(({ idx: _i, ...m }) => m));
  const calls = JSON.stringify(await turnToolCalls(db, sessionId, turnId));
  if (shown === null) return;
  await db.run(
    sql`INSERT INTO message_variants (session_id, turn_id, n, messages, tool_calls, created_at)
        VALUES (${sessionId}, ${turnId}, ${shown}, ${snapshot}, ${calls}, ${clock()})
        ON CONFLICT (session_id, turn_id, n) DO UPDATE SET messages = excluded.messages,
          tool_calls = excluded.tool_calls`,
  );
}

/**
 * POST /api/session/regenerate: keep the last answer as a variant and run the last user
 * message again (like retry); the new answer becomes the shown variant.
 */
export function regenerate(
  app: EngineHost & { runs: RunManager },
  sessionId: string,
): Promise<StartResult> {
  const { clock } = app;
  // Under the new run's claim (no other run can change the turn meanwhile) and in the
  // transaction that drops the old answer: the variant is kept exactly when the answer goes.
  return app.runs.retry(app, sessionId, async (tx) => {
    const turn = await lastTurn(tx, sessionId);
    const turnId = turn?.user.turn_id;
    if (turn && turnId && turn.tail.length) {
      await saveShown(tx, clock, sessionId, turnId, turn.tail);
      const next = ((await rows(tx, sessionId, turnId)).at(-1)?.n ?? 0) + 1;
      await tx.run(
        sql`INSERT INTO message_variants (session_id, turn_id, n, messages, tool_calls, created_at)
            VALUES (${sessionId}, ${turnId}, ${next}, NULL, NULL, ${clock()})`,
      );
    }
  });
}

/** POST /api/session/variant: show variant `n` (1-based) of the last turn instead. */
export async function selectVariant(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
  n: number,
): Promise<VariantInfo> {
  await db.transaction(async (tx) => {
    const s = await getSession(tx, sessionId);
    if (s.active_stream_id) {
      throw new ConflictError("Cannot switch answers while the session is streaming", {
        active_stream_id: s.active_stream_id,
      });
    }
    const turn = await lastTurn(tx, sessionId);
    const turnId = turn?.user.turn_id;
    const all = turnId ? await rows(tx, sessionId, turnId) : [];
    const target = all.find((r) => r.n === n);
    if (!turn || !turnId || !target) {
      throw new NotFoundError(`The last answer has no variant ${n}`);
    }
    if (target.messages === null) return; // already shown
    await saveShown(tx, clock, sessionId, turnId, turn.tail);
    await tx.run(
      sql`UPDATE message_variants SET messages = NULL, tool_calls = NULL
          WHERE session_id = ${sessionId} AND turn_id = ${turnId} AND n = ${n}`,
    );
    await truncateMessages(tx, sessionId, turn.user.idx + 1, clock());
    await tx.run(
      sql`DELETE FROM tool_calls WHERE session_id = ${sessionId} AND turn_id = ${turnId}`,
    );
    const msgs = JSON.parse(target.messages) as StoredMessage[];
    await insertMessageRows(
      tx,
      sessionId,
      msgs.map((m, i) => ({ ...m, idx: turn.user.idx + 1 + i })),
    );
    for (const r of JSON.parse(target.tool_calls ?? "[]") as ToolCallRow[]) {
      const cols = Object.keys(r).filter((c) => c !== "rowid");
      if (!cols.every((c) => /^[a-z_]+$/.test(c))) throw new ValidationError("bad variant record");
      await tx.run(
        sql`INSERT INTO tool_calls (${sql.join(cols.map((c) => sql.ref(c)))})
            VALUES (${sql.join(cols.map((c) => r[c] as string | number | null))})`,
      );
    }
    await syncMessageStats(tx, sessionId, clock());
  });
  return await variantInfo(db, sessionId);
}
