// Rebuilding an interrupted run's transcript rows from its journal. The periodic writer saves
// the streaming assistant message only every `persistIntervalMs`, so a kill -9 can leave the
// stored message behind what the client already saw; the journal has every event. Invariants:
// the rebuild is a pure function of the events (storage-agnostic, so any backend can reuse it);
// merging only grows rows (stored text is never shortened, a row is never duplicated) and is
// idempotent: running it twice changes nothing the second time.
import type { SequencedEvent } from "../shared/chat_events.ts";
import {
  appendMessages,
  listMessages,
  type MessageToolCall,
  type NewMessage,
  type StoredMessage,
  updateMessage,
} from "../sessions/messages.ts";
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";

/** A transcript row as the journal shows it. */
export type JournalMessage =
  | { role: "assistant"; content: string; reasoning: string; tool_calls: MessageToolCall[] }
  | { role: "tool"; tool_call_id: string; name: string; content: string };

/**
 * The assistant and tool messages a run's events describe, in order. A model step's text and
 * reasoning accumulate into one assistant message; `tool` events add its tool calls (with the
 * arguments the event carries); `tool_complete` adds the tool's result row (its preview: the
 * full result lives in `tool_calls`); text arriving after a tool event starts the next step's
 * message. Calls that never completed get no result row (model_messages.ts supplies one).
 */
export function messagesFromJournal(events: readonly SequencedEvent[]): JournalMessage[] {
  const out: JournalMessage[] = [];
  let current: Extract<JournalMessage, { role: "assistant" }> | null = null;
  let sawTool = false;
  const open = () => {
    current = { role: "assistant", content: "", reasoning: "", tool_calls: [] };
    out.push(current);
    sawTool = false;
    return current;
  };
  for (const e of events) {
    switch (e.event) {
      case "token":
      case "reasoning": {
        const msg = !current || sawTool ? open() : current;
        if (e.event === "token") msg.content += e.data.text;
        else msg.reasoning += e.data.text;
        break;
      }
      case "tool": {
        const msg = current ?? open();
        sawTool = true;
        if (!msg.tool_calls.some((c) => c.id === e.data.tool_call_id)) {
          msg.tool_calls.push({
            id: e.data.tool_call_id,
            type: "function",
            function: { name: e.data.name, arguments: JSON.stringify(e.data.args ?? {}) },
          });
        }
        break;
      }
      case "tool_complete":
        sawTool = true;
        out.push({
          role: "tool",
          tool_call_id: e.data.tool_call_id,
          name: e.data.name,
          content: e.data.result_preview,
        });
        break;
    }
  }
  return out;
}

/** What recovery does to one turn's stored rows. */
export interface RecoveryPlan {
  /** Stored assistant messages whose fields must grow (by idx). */
  updates: Array<
    { idx: number; content?: string; reasoning?: string; tool_calls?: MessageToolCall[] }
  >;
  /** Rows the journal has and the transcript lacks, to append in this order. */
  appends: JournalMessage[];
}

const hasText = (m: { content: unknown; reasoning?: unknown }) =>
  (typeof m.content === "string" && m.content !== "") ||
  (typeof m.reasoning === "string" && m.reasoning !== "");

/** The longer of two texts when one extends the other; otherwise the stored one (never lose it). */
function grown(stored: string, journal: string): string | undefined {
  if (journal.length > stored.length && journal.startsWith(stored)) return journal;
  return undefined;
}

/**
 * Merge the journal's view of a turn into its stored rows (`stored`: the turn's rows after its
 * user message, in order). Assistant messages that carry text are matched in order (every
 * step's text is saved at its first delta, so only the tail can be missing); a stored text that
 * is a prefix of the journal's grows to it. Tool calls and tool results are matched by id, so a
 * step that only called tools needs no text to line up. Nothing stored is ever removed.
 */
export function planRecovery(
  stored: readonly StoredMessage[],
  journal: readonly JournalMessage[],
): RecoveryPlan {
  const plan: RecoveryPlan = { updates: [], appends: [] };
  const storedTexts = stored.filter((m) => m.role === "assistant" && hasText(m));
  const storedCalls = new Set(
    stored.flatMap((m) => m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : []),
  );
  const storedResults = new Set(
    stored.filter((m) => m.role === "tool" && m.tool_call_id).map((m) => m.tool_call_id!),
  );
  let textIndex = 0;
  let lastAssistant: StoredMessage | null = null;
  let appended: Extract<JournalMessage, { role: "assistant" }> | null = null;
  for (const j of journal) {
    if (j.role === "tool") {
      if (!storedResults.has(j.tool_call_id)) {
        storedResults.add(j.tool_call_id);
        plan.appends.push(j);
      }
      continue;
    }
    const missingCalls = j.tool_calls.filter((c) => !storedCalls.has(c.id));
    for (const c of missingCalls) storedCalls.add(c.id);
    if (!hasText(j)) {
      // A tools-only step: its calls are matched by id; a missing one joins the latest message.
      if (missingCalls.length) attachCalls(plan, lastAssistant, appended, missingCalls);
      continue;
    }
    const target = storedTexts[textIndex++];
    if (target) {
      lastAssistant = target;
      appended = null;
      const content = grown(typeof target.content === "string" ? target.content : "", j.content);
      const reasoning = grown(target.reasoning ?? "", j.reasoning);
      if (content !== undefined || reasoning !== undefined) {
        plan.updates.push({
          idx: target.idx,
          ...(content !== undefined ? { content } : {}),
          ...(reasoning !== undefined ? { reasoning } : {}),
        });
      }
      if (missingCalls.length) attachCalls(plan, target, null, missingCalls);
    } else {
      appended = { ...j, tool_calls: missingCalls };
      lastAssistant = null;
      plan.appends.push(appended);
    }
  }
  return plan;
}

function attachCalls(
  plan: RecoveryPlan,
  stored: StoredMessage | null,
  appended: Extract<JournalMessage, { role: "assistant" }> | null,
  calls: MessageToolCall[],
): void {
  if (appended) {
    appended.tool_calls.push(...calls);
    return;
  }
  if (stored) {
    let u = plan.updates.find((x) => x.idx === stored.idx);
    if (!u) plan.updates.push(u = { idx: stored.idx });
    u.tool_calls = [...(u.tool_calls ?? stored.tool_calls ?? []), ...calls];
    return;
  }
  plan.appends.push({ role: "assistant", content: "", reasoning: "", tool_calls: calls });
}

/**
 * Bring the transcript of an interrupted run up to its journal (call before the run's closing
 * events are appended; one transaction, a savepoint when `db` is one already). `events` is the
 * run's journal (lib/engine/journal.ts readEvents). Returns how many rows were updated or
 * appended.
 */
export function recoverRunMessages(
  db: AsyncQueries,
  clock: Clock,
  run: { stream_id: string; session_id: string; turn_id: string },
  events: readonly SequencedEvent[],
): Promise<number> {
  return db.transaction(async (tx) => {
    const journal = messagesFromJournal(events);
    if (journal.length === 0) return 0;
    const stored = await listTurnMessages(tx, run.session_id, run.turn_id);
    const plan = planRecovery(stored, journal);
    for (const u of plan.updates) {
      const { idx, ...patch } = u;
      await updateMessage(tx, run.session_id, idx, patch);
    }
    if (plan.appends.length) {
      const rows: NewMessage[] = [];
      for (const m of plan.appends) {
        if (m.role === "tool") {
          const row = await tx.get<{ result: string | null }>(
            sql`SELECT result FROM tool_calls
                WHERE session_id = ${run.session_id} AND tool_call_id = ${m.tool_call_id}`,
          );
          rows.push({ ...m, content: row?.result ?? m.content, turn_id: run.turn_id });
        } else {
          rows.push({
            role: "assistant",
            content: m.content,
            ...(m.reasoning ? { reasoning: m.reasoning } : {}),
            ...(m.tool_calls.length ? { tool_calls: m.tool_calls } : {}),
            turn_id: run.turn_id,
          });
        }
      }
      await appendMessages(tx, clock, run.session_id, rows);
    }
    return plan.updates.length + plan.appends.length;
  });
}

/** The rows a turn wrote after its user message, in order. */
async function listTurnMessages(
  db: AsyncQueries,
  sessionId: string,
  turnId: string,
): Promise<StoredMessage[]> {
  const first = await db.get<{ i: number | string | null }>(
    sql`SELECT min(idx) AS i FROM messages
        WHERE session_id = ${sessionId} AND turn_id = ${turnId} AND role = 'user'`,
  );
  const after = first?.i == null ? -1 : Number(first.i);
  return (await listMessages(db, sessionId)).filter((m) =>
    m.idx > after && m.turn_id === turnId && m.role !== "user"
  );
}
