// Browser-safe: imports nothing from Deno or the database.
// The one event vocabulary of a chat run (API.md "Events"), shared by the engine, the SSE
// writer, the journal and the Transcript island. `seq` is assigned by the journal.

export type ToolCallStatus =
  | "pending"
  | "awaiting_approval"
  | "running"
  | "completed"
  | "error"
  | "denied";

export type AppErrorType =
  | "rate_limit"
  | "quota_exhausted"
  | "model_not_found"
  | "auth_mismatch"
  | "no_response"
  | "no_provider"
  | "interrupted"
  | "provider_error";

export interface ToolEventData {
  event_type: "tool.started";
  tool_call_id: string;
  name: string;
  preview: string;
  args: Record<string, unknown>;
}

/** Extension: what a write_file/patch call changed (lib/tools/file_diff.ts), a unified diff. */
export interface FileDiff {
  path: string;
  status: "added" | "modified";
  added: number;
  removed: number;
  /** Lines start with " ", "+" or "-" (npm `diff`'s structured patch). */
  hunks: Array<
    { old_start: number; old_lines: number; new_start: number; new_lines: number; lines: string[] }
  >;
  truncated?: boolean;
}

export interface ToolCompleteEventData {
  event_type: "tool.completed";
  tool_call_id: string;
  name: string;
  preview: string;
  args: Record<string, unknown>;
  duration: number;
  is_error: boolean;
  result_preview: string;
  /** Extension: the terminal status of the call (completed | error | denied). */
  status?: ToolCallStatus;
  /** Extension: the file change of a write_file/patch call. */
  diff?: FileDiff;
}

/**
 * Extension: progress of a long tool call, keyed by the call's id. The `delegate` tool sends
 * one per child tool call start/finish, so the tool card can nest the child's calls.
 */
export interface ToolProgressEventData {
  event_type: "tool.progress";
  /** The parent's call (the `delegate` card). */
  tool_call_id: string;
  /** The hidden child session the sub-task runs in. */
  child_session_id: string;
  /** Model steps the child has started so far. */
  step: number;
  /** The child's tool call this progress is about. */
  child: {
    tool_call_id: string;
    name: string;
    preview: string;
    status: ToolCallStatus;
    duration?: number;
    result_preview?: string;
  };
}

export interface ApprovalEventData {
  approval_id: string;
  command: string;
  description: string;
  pattern_key: string;
  pattern_keys: string[];
  pending_count: number;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  estimated_cost?: number | null;
  /**
   * True when some of these counts were estimated (characters ÷ 4) because the provider
   * reported no usage; absent or false when every count is the provider's own.
   */
  estimated?: boolean;
}

/** Every event a run can emit, discriminated by `event` (the SSE event name). */
export type ChatEvent =
  | { event: "token"; data: { text: string } }
  | { event: "reasoning"; data: { text: string } }
  | { event: "tool"; data: ToolEventData }
  | { event: "tool_complete"; data: ToolCompleteEventData }
  | { event: "tool_progress"; data: ToolProgressEventData }
  | { event: "approval"; data: ApprovalEventData }
  | {
    event: "approval_resolved";
    data: { approval_id: string; choice: string; pending_count: number };
  }
  | { event: "clarify"; data: { clarify_id: string; question: string; choices?: string[] } }
  | { event: "todo_state"; data: { todos: Array<{ id: string; content: string; status: string }> } }
  | { event: "compressing"; data: { session_id: string; message: string } }
  | { event: "compressed"; data: { session_id: string; usage?: Usage; message?: string } }
  | {
    event: "metering";
    data: Usage & { ttft_ms?: number | null; tokens_per_s?: number | null };
  }
  | { event: "warning"; data: { type: string; message: string } }
  | { event: "done"; data: { session: Record<string, unknown>; usage: Usage } }
  | { event: "title"; data: { session_id: string; title: string } }
  | {
    /** The model is writing a title (lib/engine/titles.ts); the sessions feed brings the result. */
    event: "title_status";
    data: { session_id: string; status: "generating" | "generated" | "failed"; title?: string };
  }
  | {
    /** A standing goal (lib/goals) started this turn by itself: the first event of the run. */
    event: "goal_continue";
    data: { session_id: string; goal: string; turn: number; max_turns: number; reason: string };
  }
  | {
    /** A steer note (lib/engine/steer.ts) was added to the transcript before the next step. */
    event: "steer";
    data: { idx: number; text: string | unknown[]; timestamp: number };
  }
  | { event: "stream_end"; data: { session_id: string } }
  | { event: "cancel"; data: { message: string; type: "cancelled" } }
  | {
    event: "apperror";
    data: { message: string; type: AppErrorType; hint?: string; details?: string };
  }
  | { event: "error"; data: { message: string } };

export type ChatEventName = ChatEvent["event"];

/** A journaled event: the stream it belongs to and its position in it. */
export type SequencedEvent = ChatEvent & { seq: number };

/** Events after which the server closes the SSE stream. */
export const TERMINAL_EVENTS: ReadonlySet<ChatEventName> = new Set([
  "stream_end",
  "cancel",
  "apperror",
  "error",
]);

/**
 * The event of the last frame of every event stream when the server shuts down
 * (lib/server/live_responses.ts). Not a run event: no id, no seq, never journaled, so a reader's
 * cursor stays where it was. It says "this server is leaving: reconnect once it answers again",
 * never "the run is over".
 */
export const GOING_AWAY_EVENT = "server_going_away";

/** Encode one SSE frame exactly as API.md specifies: id, event, data, blank line. */
export function encodeSseFrame(streamId: string, e: SequencedEvent): string {
  return `id: ${streamId}:${e.seq}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** Parse a `Last-Event-ID` value (`<stream_id>:<seq>`) into its seq, or null. */
export function parseLastEventId(value: string | null, streamId: string): number | null {
  if (!value) return null;
  const i = value.lastIndexOf(":");
  if (i < 0) return /^\d+$/.test(value) ? Number(value) : null;
  if (value.slice(0, i) !== streamId) return null;
  const seq = Number(value.slice(i + 1));
  return Number.isInteger(seq) && seq >= 0 ? seq : null;
}
