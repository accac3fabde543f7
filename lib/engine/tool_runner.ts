// Bookkeeping of tool calls inside a run: the `tool_calls` row walks pending → running
// (→ awaiting_approval → running) → completed | error | denied, `tool`/`tool_complete` event
// data, previews and result clipping. Execution itself is lib/tools/registry.ts `runToolCall`
// (unknown names, invalid arguments and throws become error results the model can read).
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { ToolCallStatus, ToolCompleteEventData } from "../shared/chat_events.ts";
import type { ToolResult } from "../tools/types.ts";

/** Characters of a result kept for the model / the stored row / the event preview. */
export const MAX_RESULT_FOR_MODEL = 100_000;
export const RESULT_PREVIEW_CHARS = 400;

/** A call as the model made it. */
export interface ModelToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A short human line for a call, shown on the tool card. */
export function toolPreview(name: string, args: Record<string, unknown>): string {
  for (const key of ["command", "path", "file_path", "query", "url", "pattern", "name", "task"]) {
    const v = args[key];
    if (typeof v === "string" && v) return clipLine(v, 160);
  }
  const json = JSON.stringify(args);
  return clipLine(json === "{}" ? name : json, 160);
}

function clipLine(s: string, n: number): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? one.slice(0, n - 1) + "…" : one;
}

/** Keep the head and tail of a long result (errors are usually at the end). */
export function clipResult(s: string, n = MAX_RESULT_FOR_MODEL): string {
  if (s.length <= n) return s;
  const head = Math.floor(n * 0.7);
  const tail = n - head;
  return `${s.slice(0, head)}\n[… ${s.length - n} characters omitted …]\n${s.slice(-tail)}`;
}

/** Make a provider's call id unique within the session (some local servers reuse "call_0"). */
export async function uniqueToolCallId(
  db: AsyncQueries,
  sessionId: string,
  id: string,
): Promise<string> {
  const taken = async (candidate: string) =>
    (await db.get(
      sql`SELECT 1 AS one FROM tool_calls
          WHERE session_id = ${sessionId} AND tool_call_id = ${candidate}`,
    )) !== undefined;
  let candidate = id || "call";
  for (let n = 2; await taken(candidate); n++) candidate = `${id || "call"}_${n}`;
  return candidate;
}

export async function insertToolCall(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
  turnId: string,
  call: ModelToolCall,
): Promise<void> {
  await db.run(
    sql`INSERT INTO tool_calls (session_id, tool_call_id, turn_id, name, args, status, started_at)
        VALUES (${sessionId}, ${call.id}, ${turnId}, ${call.name}, ${JSON.stringify(call.args)},
          'pending', ${clock()})`,
  );
}

export async function setToolCallStatus(
  db: AsyncQueries,
  sessionId: string,
  id: string,
  status: ToolCallStatus,
  result?: { result: string; duration: number },
): Promise<void> {
  if (result) {
    await db.run(
      sql`UPDATE tool_calls SET status = ${status}, result = ${result.result},
            duration = ${result.duration}
          WHERE session_id = ${sessionId} AND tool_call_id = ${id}`,
    );
  } else {
    await db.run(
      sql`UPDATE tool_calls SET status = ${status}
          WHERE session_id = ${sessionId} AND tool_call_id = ${id}`,
    );
  }
}

/** The `tool_complete` event data for a finished call. */
export function completeEventData(
  call: ModelToolCall,
  result: ToolResult,
  durationSeconds: number,
): ToolCompleteEventData {
  const status: ToolCallStatus = result.denied ? "denied" : result.isError ? "error" : "completed";
  return {
    event_type: "tool.completed",
    tool_call_id: call.id,
    name: call.name,
    preview: toolPreview(call.name, call.args),
    args: call.args,
    duration: Math.round(durationSeconds * 1000) / 1000,
    is_error: !!result.isError || !!result.denied,
    result_preview: result.output.length > RESULT_PREVIEW_CHARS
      ? result.output.slice(0, RESULT_PREVIEW_CHARS) + "…"
      : result.output,
    status,
    ...(result.diff ? { diff: result.diff } : {}),
  };
}
