// A session as a JSONL trace: one event per line in the journal's vocabulary (`token`,
// `reasoning`, `tool`, `tool_complete`, plus `session` first, `message` for user and system rows
// and `message_end` closing each assistant row), for tools that read run logs line by line.
// Invariants: import(export(s)) is s — every message (order, content, timestamps, extra fields)
// and every tool call record (status, result, timing) comes back; a line that is not one of
// these events, or events out of order, is a ValidationError naming the line.
import { ValidationError } from "../errors.ts";
import type { StoredMessage } from "./messages.ts";
import type { FullSession, SessionToolCall } from "./sessions.ts";

export const TRACE_MARKER = "hermes-console-trace";

type Line = { event: string; data: Record<string, unknown> };

/** Session metadata carried by the first line (everything but messages and tool calls). */
function metaOf(s: FullSession): Record<string, unknown> {
  const { messages: _m, tool_calls: _t, _messages_truncated, _messages_offset, ...meta } = s;
  return meta;
}

/** The trace of `s`, one JSON object per line, newline-terminated. */
export function sessionToTrace(s: FullSession, exportedAt: number): string {
  const calls = new Map(s.tool_calls.map((c) => [c.tool_call_id, c]));
  const lines: Line[] = [{
    event: "session",
    data: { format: TRACE_MARKER, version: 1, exported_at: exportedAt, ...metaOf(s) },
  }];
  for (const m of s.messages) {
    const { idx: _idx, ...row } = m;
    if (m.role === "assistant") {
      const { content, reasoning, tool_calls, ...rest } = row;
      if (reasoning) lines.push({ event: "reasoning", data: { text: reasoning } });
      if (content !== undefined && content !== "") {
        lines.push({
          event: "token",
          data: typeof content === "string" ? { text: content } : { text: "", parts: content },
        });
      }
      for (const tc of tool_calls ?? []) {
        const rec = calls.get(tc.id);
        calls.delete(tc.id);
        lines.push({
          event: "tool",
          data: {
            event_type: "tool.started",
            tool_call_id: tc.id,
            name: tc.function.name,
            arguments: tc.function.arguments,
            ...(rec ? { record: rec } : {}),
          },
        });
      }
      lines.push({ event: "message_end", data: rest });
    } else if (m.role === "tool") {
      const { content, tool_call_id, name, ...rest } = row;
      lines.push({
        event: "tool_complete",
        data: { tool_call_id, name, result: content, ...rest },
      });
    } else {
      lines.push({ event: "message", data: row });
    }
  }
  // Tool call records with no assistant message left (possible after an undo) still travel.
  for (const rec of calls.values()) lines.push({ event: "tool_record", data: { record: rec } });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function bad(lineNo: number, why: string): never {
  throw new ValidationError(`Trace line ${lineNo}: ${why}`, "trace");
}

function obj(v: unknown, lineNo: number, what: string): Record<string, unknown> {
  if (!v || typeof v !== "object" || Array.isArray(v)) bad(lineNo, `${what} must be an object`);
  return v as Record<string, unknown>;
}

/** What a trace reads back to: the fields of POST /api/session/import's body (validated there). */
export type TraceImport = Record<string, unknown> & {
  messages: StoredMessage[];
  tool_calls: SessionToolCall[];
};

/**
 * Read a trace back into an import body (lib/sessions/session_export.ts importSession). `parse`
 * reads one line (the route passes the depth-capped JSON reader).
 */
export function traceToImport(
  text: string,
  parse: (line: string) => unknown = JSON.parse,
): TraceImport {
  const rows = text.split("\n").map((l, i) => [l.trim(), i + 1] as const).filter(([l]) => l);
  if (rows.length === 0) throw new ValidationError("The trace is empty", "trace");
  const messages: Array<Record<string, unknown>> = [];
  const toolCalls: SessionToolCall[] = [];
  let meta: Record<string, unknown> | null = null;
  let pending: Record<string, unknown> | null = null;
  const assistant = () => (pending ??= { role: "assistant", content: "" });
  for (const [raw, n] of rows) {
    let line: Line;
    try {
      line = parse(raw) as Line;
    } catch (err) {
      bad(n, `not JSON (${(err as Error).message})`);
    }
    const o = obj(line, n, "a line");
    const data = obj(o.data ?? {}, n, "data");
    if (n === rows[0][1]) {
      if (o.event !== "session" || data.format !== TRACE_MARKER) {
        bad(n, `the first line must be the "session" event of a ${TRACE_MARKER}`);
      }
      const { format: _f, version: _v, exported_at: _e, ...rest } = data;
      meta = rest;
      continue;
    }
    if (pending && !["reasoning", "token", "tool", "message_end"].includes(String(o.event))) {
      bad(n, `"${o.event}" inside an assistant message (missing message_end)`);
    }
    switch (o.event) {
      case "message":
        messages.push(data);
        break;
      case "reasoning":
        assistant().reasoning = String(data.text ?? "");
        break;
      case "token":
        assistant().content = Array.isArray(data.parts) ? data.parts : String(data.text ?? "");
        break;
      case "tool": {
        const a = assistant();
        const list = (a.tool_calls ??= []) as Array<Record<string, unknown>>;
        list.push({
          id: String(data.tool_call_id),
          type: "function",
          function: { name: String(data.name), arguments: String(data.arguments ?? "{}") },
        });
        if (data.record) {
          toolCalls.push(obj(data.record, n, "record") as unknown as SessionToolCall);
        }
        break;
      }
      case "message_end":
        messages.push({ ...assistant(), ...data });
        pending = null;
        break;
      case "tool_complete": {
        const { result, ...rest } = data;
        messages.push({ role: "tool", content: result ?? "", ...rest });
        break;
      }
      case "tool_record":
        toolCalls.push(obj(data.record, n, "record") as unknown as SessionToolCall);
        break;
      default:
        bad(n, `unknown event ${JSON.stringify(o.event)}`);
    }
  }
  if (pending) bad(rows.at(-1)![1], "the trace ends inside an assistant message");
  return {
    ...(meta ?? {}),
    messages: messages as unknown as StoredMessage[],
    tool_calls: toolCalls,
  };
}
