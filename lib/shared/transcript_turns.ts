// Browser-safe: imports nothing from Deno or the database.
// The shapes of the transcript as the console shows it: a turn (user message, assistant prose
// segments, one activity of thinking, tool calls and plan, notices that must stay visible) and
// the small pure helpers both foldings share (tool targets, clipped arguments and results).
// Invariant: a turn's key (its `turn_id`, else its user message idx) is the same live and
// settled, so a disclosure choice made during the run still applies after a reload.
import type { ToolCallStatus } from "./chat_events.ts";
import type { AttachmentView } from "./attachment_views.ts";
import { t } from "../i18n/t.ts";

/** Characters of a tool result / of pretty-printed arguments kept for the first paint. */
export const RESULT_CLIP = 1200;
export const ARGS_CLIP = 1200;

/** A stored message as the session API returns it (the fields the transcript reads). */
export interface TranscriptMessage {
  idx: number;
  role: string;
  content: unknown;
  tool_calls?: Array<{ id: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
  name?: string;
  reasoning?: string;
  turn_id?: string;
  attachments?: unknown[];
}

/** A row of the full session's `tool_calls` (its recorded status, result and duration). */
export interface ToolCallRecord {
  tool_call_id: string;
  status: string;
  result?: string | null;
  duration?: number | null;
}

export interface ToolView {
  id: string;
  name: string;
  /** The short target shown on the card: the command, path, query… */
  target: string;
  /** Pretty-printed arguments, clipped to ARGS_CLIP. */
  args: string;
  argsClipped: boolean;
  status: ToolCallStatus;
  /** The result (clipped to RESULT_CLIP), or null while there is none. */
  result: string | null;
  /** Length of the whole result (greater than `result.length` when clipped). */
  resultChars: number;
  duration: number | null;
  /** A `delegate` call: the child run's calls so far (nested cards) and its hidden session. */
  children?: ToolView[];
  childSessionId?: string;
}

export interface TodoItem {
  id: string;
  content: string;
  status: string;
}

/** One block of assistant prose (one model step's text). `html` is filled by the renderer. */
export interface Segment {
  key: string;
  text: string;
  html?: string;
}

/** Something the user must see outside the collapsed activity: a failure, a stop, a warning. */
export interface Notice {
  kind: "error" | "cancelled" | "warning";
  title: string;
  message: string;
  hint?: string;
  /** A way forward (the no-provider notice links to setup). */
  link?: { href: string; label: string };
  /** The run stopped short of an answer and the turn can run again (a server restart). */
  retry?: boolean;
}

export interface TurnUser {
  idx: number | null;
  text: string;
  /** File names of attachments. */
  attachments: string[];
}

export interface TurnModel {
  /** Disclosure key: the turn id, else `i<user idx>` (or `r<first reply idx>` without one). */
  key: string;
  turnId: string | null;
  user: TurnUser | null;
  thinking: string[];
  tools: ToolView[];
  todos: TodoItem[] | null;
  segments: Segment[];
  notices: Notice[];
  /** The order things happened in: thinking, prose and tool calls interleaved (transcript_order.ts). */
  order: OrderItem[];
  /** The user message's attachments with what the bubble needs to show and open them. */
  userFiles?: AttachmentView[];
  /**
   * The turn's calls changed files (its checkpoints say so: lib/checkpoints), so it can be rolled
   * back; unknown when absent (then a file-changing call that ran is taken as a change).
   */
  changedFiles?: boolean;
}

/** One entry of a turn's `order`: a thinking block (index), a prose segment (key), a call (id). */
export type OrderItem =
  | { kind: "thinking"; i: number }
  | { kind: "text"; key: string }
  | { kind: "tool"; id: string };

/** Plain text of a content value (array parts contribute their `text`). */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : String(content);
  return content
    .map((
      p,
    ) => (p && typeof (p as { text?: unknown }).text === "string"
      ? (p as { text: string }).text
      : "")
    )
    .filter(Boolean)
    .join("\n");
}

export function attachmentNames(list: unknown[] | undefined): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((a) => {
    if (typeof a === "string") return a.split("/").pop() ?? a;
    const o = (a ?? {}) as Record<string, unknown>;
    const n = o.filename ?? o.name ?? o.path;
    return typeof n === "string" ? n.split("/").pop() ?? n : "attachment";
  });
}

function clipLine(s: string, n: number): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? one.slice(0, n - 1) + "…" : one;
}

/**
 * The short target of a call: the engine's tool preview (same keys, same order), except for
 * the plan, whose items the activity lists anyway. Live and settled turns both use this.
 */
export function toolTarget(name: string, args: unknown): string {
  if (name === "todo") {
    // The plan itself is shown as a checklist: the card only says what the call did.
    const todos = (args as { todos?: unknown[] } | null)?.todos;
    if (!Array.isArray(todos)) return "read the plan";
    return `${todos.length} ${todos.length === 1 ? "item" : "items"}`;
  }
  if (args && typeof args === "object") {
    const a = args as Record<string, unknown>;
    for (const key of ["command", "path", "file_path", "query", "url", "pattern", "name", "task"]) {
      const v = a[key];
      if (typeof v === "string" && v) return clipLine(v, 160);
    }
    const json = JSON.stringify(a);
    return json === "{}" ? "" : clipLine(json, 160);
  }
  return typeof args === "string" ? clipLine(args, 160) : name;
}

/** Arguments as the model sent them (JSON text) parsed when possible. */
export function parseArgs(raw: string | undefined): unknown {
  if (!raw) return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Pretty-printed arguments, clipped. */
export function formatArgs(args: unknown): { text: string; clipped: boolean } {
  let text = typeof args === "string" ? args : JSON.stringify(args, null, 2) ?? "";
  if (text === "{}") text = "";
  if (text.length <= ARGS_CLIP) return { text, clipped: false };
  return { text: text.slice(0, ARGS_CLIP), clipped: true };
}

export function clipResult(s: string): { result: string; resultChars: number } {
  return { result: s.length > RESULT_CLIP ? s.slice(0, RESULT_CLIP) : s, resultChars: s.length };
}

export const STATUSES = new Set([
  "pending",
  "awaiting_approval",
  "running",
  "completed",
  "error",
  "denied",
]);

/** A result's status when no tool_calls record says: the engine's BLOCKED/Error wording. */
export function statusFromResult(text: string): ToolCallStatus {
  if (text.startsWith("BLOCKED:")) return "denied";
  if (/^Error\b/.test(text)) return "error";
  return "completed";
}

/** `[x] 2. Write tests` lines of the todo tool's result → the plan. */
export function parseTodoResult(text: string): TodoItem[] | null {
  const marks: Record<string, string> = {
    " ": "pending",
    ">": "in_progress",
    x: "completed",
    "-": "cancelled",
  };
  const items: TodoItem[] = [];
  for (const line of text.split("\n")) {
    const m = /^\[([ >x-])\] (\S+?)\. (.*)$/.exec(line);
    if (m) items.push({ id: m[2], content: m[3], status: marks[m[1]] });
  }
  return items.length ? items : null;
}

export function emptyTurn(key: string, turnId: string | null, user: TurnUser | null): TurnModel {
  return {
    key,
    turnId,
    user,
    thinking: [],
    tools: [],
    todos: null,
    segments: [],
    notices: [],
    order: [],
  };
}

/** True when the turn has anything for the activity disclosure. */
export function hasActivity(t: Pick<TurnModel, "thinking" | "tools" | "todos">): boolean {
  return t.thinking.length > 0 || t.tools.length > 0 || (t.todos?.length ?? 0) > 0;
}

/** `Activity: 4 tools` — terse: no tool names, no second count (DESIGN.md). */
export function activitySummary(thinking: boolean, tools: number): string {
  // DESIGN.md: terse, and it does not repeat the thinking area when there are tools to count.
  if (tools > 0) return t("activity.summaryTools", { count: tools });
  return thinking ? t("activity.summaryThinking") : t("activity.summaryPlan");
}

/** Tools of a turn that failed or were refused: shown outside the collapsed activity. */
export function failedTools(t: Pick<TurnModel, "tools">): ToolView[] {
  return t.tools.filter((x) => x.status === "error" || x.status === "denied");
}
