// Answer variants: "regenerate" keeps the old answer of the session's last turn as a variant
// the person can flip back to (‹ 1/2 ›). Invariants: only the last turn has live variants (an
// older answer has later turns built on it); exactly one variant of a turn is in the transcript
// (its row has messages NULL), so the model always sees the chosen one; a flip swaps the
// transcript's tail and the turn's tool call records in one transaction.
import { type Db, transaction } from "../storage/db.ts";
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

function lastTurn(
  db: Db,
  sessionId: string,
): { user: StoredMessage; tail: StoredMessage[] } | null {
  const msgs = listMessages(db, sessionId);
  const user = msgs.findLast((m) => m.role === "user");
  if (!user) return null;
  return { user, tail: msgs.filter((m) => m.idx > user.idx) };
}

function rows(db: Db, sessionId: string, turnId: string): VariantRow[] {
  return db.prepare(
    "SELECT n, messages, tool_calls FROM message_variants WHERE session_id = ? AND turn_id = ? ORDER BY n",
  ).all(sessionId, turnId) as unknown as VariantRow[];
}

function turnToolCalls(db: Db, sessionId: string, turnId: string): ToolCallRow[] {
  return db.prepare("SELECT * FROM tool_calls WHERE session_id = ? AND turn_id = ?").all(
    sessionId,
    turnId,
  ) as ToolCallRow[];
}

/** The variants of the last turn of `sessionId`. */
export function variantInfo(db: Db, sessionId: string): VariantInfo {
  getSession(db, sessionId);
  const turn = lastTurn(db, sessionId);
  const turnId = turn?.user.turn_id ?? null;
  if (!turnId) return { turn_id: turnId, count: turn?.tail.length ? 1 : 0, current: 1 };
  const all = rows(db, sessionId, turnId);
  if (!all.length) return { turn_id: turnId, count: turn!.tail.length ? 1 : 0, current: 1 };
  return {
    turn_id: turnId,
    count: all.length,
    current: all.findIndex((r) => r.messages === null) + 1 || all.length,
  };
}

/** Save the transcript's answer of the last turn into the variant row shown now. */
function saveShown(db: Db, clock: Clock, sessionId: string, turnId: string, tail: StoredMessage[]) {
  const all = rows(db, sessionId, turnId);
  const shown = all.find((r) => r.messages === null)?.n ?? (all.length ? null : 1);
  const snapshot = JSON.stringify(tail.map(({ idx: _i, ...m }) => m));
  const calls = JSON.stringify(turnToolCalls(db, sessionId, turnId));
  if (shown === null) return;
  db.prepare(
    `INSERT INTO message_variants (session_id, turn_id, n, messages, tool_calls, created_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (session_id, turn_id, n) DO UPDATE SET messages = excluded.messages,
       tool_calls = excluded.tool_calls`,
  ).run(sessionId, turnId, shown, snapshot, calls, clock());
}

/**
 * POST /api/session/regenerate: keep the last answer as a variant and run the last user
 * message again (like retry); the new answer becomes the shown variant.
 */
export function regenerate(
  app: EngineHost & { runs: RunManager },
  sessionId: string,
): Promise<StartResult> {
  const { db, clock } = app;
  // Under the new run's claim (no other run can change the turn meanwhile) and in the
  // transaction that drops the old answer: the variant is kept exactly when the answer goes.
  return app.runs.retry(app, sessionId, () => {
    const turn = lastTurn(db, sessionId);
    const turnId = turn?.user.turn_id;
    if (turn && turnId && turn.tail.length) {
      saveShown(db, clock, sessionId, turnId, turn.tail);
      const next = (rows(db, sessionId, turnId).at(-1)?.n ?? 0) + 1;
      db.prepare(
        `INSERT INTO message_variants (session_id, turn_id, n, messages, tool_calls, created_at)
         VALUES (?, ?, ?, NULL, NULL, ?)`,
      ).run(sessionId, turnId, next, clock());
    }
  });
}

/** POST /api/session/variant: show variant `n` (1-based) of the last turn instead. */
export function selectVariant(db: Db, clock: Clock, sessionId: string, n: number): VariantInfo {
  transaction(db, () => {
    const s = getSession(db, sessionId);
    if (s.active_stream_id) {
      throw new ConflictError("Cannot switch answers while the session is streaming", {
        active_stream_id: s.active_stream_id,
      });
    }
    const turn = lastTurn(db, sessionId);
    const turnId = turn?.user.turn_id;
    const all = turnId ? rows(db, sessionId, turnId) : [];
    const target = all.find((r) => r.n === n);
    if (!turn || !turnId || !target) {
      throw new NotFoundError(`The last answer has no variant ${n}`);
    }
    if (target.messages === null) return; // already shown
    saveShown(db, clock, sessionId, turnId, turn.tail);
    db.prepare(
      "UPDATE message_variants SET messages = NULL, tool_calls = NULL WHERE session_id = ? AND turn_id = ? AND n = ?",
    )
      .run(sessionId, turnId, n);
    truncateMessages(db, sessionId, turn.user.idx + 1, clock());
    db.prepare("DELETE FROM tool_calls WHERE session_id = ? AND turn_id = ?").run(
      sessionId,
      turnId,
    );
    const msgs = JSON.parse(target.messages) as StoredMessage[];
    insertMessageRows(db, sessionId, msgs.map((m, i) => ({ ...m, idx: turn.user.idx + 1 + i })));
    for (const r of JSON.parse(target.tool_calls ?? "[]") as ToolCallRow[]) {
      const cols = Object.keys(r);
      if (!cols.every((c) => /^[a-z_]+$/.test(c))) throw new ValidationError("bad variant record");
      db.prepare(
        `INSERT INTO tool_calls (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
      ).run(...cols.map((c) => r[c] as string | number | null));
    }
    syncMessageStats(db, sessionId, clock());
  });
  return variantInfo(db, sessionId);
}
