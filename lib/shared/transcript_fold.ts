// Browser-safe: imports nothing from Deno or the database.
// Stored messages folded into turns, and the paging that keeps each page to whole turns.
// Invariants: folding is pure; a turn starts at each user message; a page of older messages
// starts at a user message (or the very first message), never in the middle of a turn.
import type { ToolCallStatus } from "./chat_events.ts";
import {
  attachmentNames,
  clipResult,
  emptyTurn,
  formatArgs,
  messageText,
  parseArgs,
  parseTodoResult,
  STATUSES,
  statusFromResult,
  type ToolCallRecord,
  toolTarget,
  type ToolView,
  type TranscriptMessage,
  type TurnModel,
  type TurnUser,
} from "./transcript_turns.ts";
import { attachmentViews } from "./attachment_views.ts";

/**
 * Fold stored messages into turns. A turn starts at each user message; rows before the first
 * user message (a page that starts mid-turn) form a turn without one. System messages are not
 * shown. `records` (the session's tool_calls) give each call its recorded status.
 */
export function foldMessages(
  messages: TranscriptMessage[],
  records: ToolCallRecord[] = [],
): TurnModel[] {
  const byId = new Map(records.map((r) => [r.tool_call_id, r]));
  const turns: TurnModel[] = [];
  let tools = new Map<string, ToolView>();
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "user") {
      const user: TurnUser = {
        idx: m.idx,
        text: messageText(m.content),
        attachments: attachmentNames(m.attachments),
      };
      turns.push(emptyTurn(m.turn_id ?? `i${m.idx}`, m.turn_id ?? null, user));
      const files = attachmentViews(m.attachments);
      if (files.length) turns[turns.length - 1].userFiles = files;
      tools = new Map();
      continue;
    }
    if (turns.length === 0) {
      turns.push(emptyTurn(m.turn_id ?? `r${m.idx}`, m.turn_id ?? null, null));
    }
    const turn = turns[turns.length - 1];
    if (m.role === "assistant") {
      const reasoning = m.reasoning?.trim();
      if (reasoning) turn.order.push({ kind: "thinking", i: turn.thinking.push(reasoning) - 1 });
      const text = messageText(m.content);
      if (text.trim()) {
        turn.segments.push({ key: `m${m.idx}`, text });
        turn.order.push({ kind: "text", key: `m${m.idx}` });
      }
      for (const call of m.tool_calls ?? []) {
        const name = call.function?.name ?? "tool";
        const args = parseArgs(call.function?.arguments);
        const formatted = formatArgs(args);
        const rec = byId.get(call.id);
        const view: ToolView = {
          id: call.id,
          name,
          target: toolTarget(name, args),
          args: formatted.text,
          argsClipped: formatted.clipped,
          status: rec && STATUSES.has(rec.status) ? rec.status as ToolCallStatus : "pending",
          result: null,
          resultChars: 0,
          duration: rec?.duration ?? null,
        };
        if (rec && typeof rec.result === "string") Object.assign(view, clipResult(rec.result));
        tools.set(call.id, view);
        turn.tools.push(view);
        turn.order.push({ kind: "tool", id: call.id });
      }
    } else if (m.role === "tool") {
      const text = messageText(m.content);
      const view = m.tool_call_id ? tools.get(m.tool_call_id) : undefined;
      if (view) {
        const rec = byId.get(view.id);
        if (typeof rec?.result !== "string") Object.assign(view, clipResult(text));
        if (!rec) view.status = statusFromResult(text);
        if (view.name === "todo") turn.todos = parseTodoResult(text) ?? turn.todos;
      }
    }
  }
  return turns;
}

/**
 * Where a page of messages may start so that it holds whole turns: at its first user
 * message. Rows before it belong to an older turn and load with the older page. Returns the
 * array index to keep from (0 when the page already starts a turn, or holds no user message).
 */
export function turnStart(messages: TranscriptMessage[]): number {
  if (messages.length === 0 || messages[0].role === "user") return 0;
  const i = messages.findIndex((m) => m.role === "user");
  return i < 0 ? 0 : i;
}

/**
 * The page of messages before `before` (undefined: the latest) that holds whole turns: it
 * starts at a user message, or at the very first message. A turn longer than the page is
 * fetched with a doubled limit, up to `maxLimit` rows (then shown from wherever it starts).
 * `offset` is the idx of the first message returned (0: nothing older exists).
 */
export async function alignedPage<M extends TranscriptMessage>(
  fetchPage: (before: number | undefined, limit: number) => M[] | Promise<M[]>,
  before: number | undefined,
  limit: number,
  maxLimit = 500,
): Promise<{ messages: M[]; offset: number }> {
  for (let lim = Math.min(limit, maxLimit);; lim = Math.min(maxLimit, lim * 2)) {
    const page = await fetchPage(before, lim);
    if (page.length === 0) return { messages: page, offset: 0 };
    if (page.length < lim || page[0].idx === 0) return { messages: page, offset: 0 };
    const cut = turnStart(page);
    if (page[0].role === "user" || cut > 0) {
      return { messages: page.slice(cut), offset: page[cut].idx };
    }
    if (lim >= maxLimit) return { messages: page, offset: page[0].idx };
  }
}
