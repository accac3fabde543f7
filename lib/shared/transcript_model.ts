// Browser-safe: imports nothing from Deno or the database.
// The transcript as the console shows it: stored messages, and the ChatEvents of a live run,
// folded into turns (user message, assistant prose segments, one activity of thinking, tool
// calls and plan, and notices that must stay visible). Invariants: folding is pure; a live run
// applies each seq at most once, so a replayed journal never doubles text; a turn's key (its
// `turn_id`, else its user message idx) is the same live and settled, so a disclosure choice
// made during the run still applies after a reload.
import type {
  ApprovalEventData,
  ChatEvent,
  SequencedEvent,
  ToolCallStatus,
  Usage,
} from "./chat_events.ts";

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
}

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

function attachmentNames(list: unknown[] | undefined): string[] {
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
    for (const key of ["command", "path", "file_path", "query", "url", "pattern", "name"]) {
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

function clipResult(s: string): { result: string; resultChars: number } {
  return { result: s.length > RESULT_CLIP ? s.slice(0, RESULT_CLIP) : s, resultChars: s.length };
}

const STATUSES = new Set([
  "pending",
  "awaiting_approval",
  "running",
  "completed",
  "error",
  "denied",
]);

/** A result's status when no tool_calls record says: the engine's BLOCKED/Error wording. */
function statusFromResult(text: string): ToolCallStatus {
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

function emptyTurn(key: string, turnId: string | null, user: TurnUser | null): TurnModel {
  return { key, turnId, user, thinking: [], tools: [], todos: null, segments: [], notices: [] };
}

/** True when the turn has anything for the activity disclosure. */
export function hasActivity(t: Pick<TurnModel, "thinking" | "tools" | "todos">): boolean {
  return t.thinking.length > 0 || t.tools.length > 0 || (t.todos?.length ?? 0) > 0;
}

/** `Activity: 4 tools` — terse: no tool names, no second count (DESIGN.md). */
export function activitySummary(thinking: boolean, tools: number): string {
  // DESIGN.md: terse, and it does not repeat the thinking area when there are tools to count.
  if (tools > 0) return `Activity: ${tools} ${tools === 1 ? "tool" : "tools"}`;
  return thinking ? "Activity: thinking" : "Activity: plan";
}

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
      tools = new Map();
      continue;
    }
    if (turns.length === 0) {
      turns.push(emptyTurn(m.turn_id ?? `r${m.idx}`, m.turn_id ?? null, null));
    }
    const turn = turns[turns.length - 1];
    if (m.role === "assistant") {
      const reasoning = m.reasoning?.trim();
      if (reasoning) turn.thinking.push(reasoning);
      const text = messageText(m.content);
      if (text.trim()) turn.segments.push({ key: `m${m.idx}`, text });
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

const ERROR_TITLES: Record<string, string> = {
  rate_limit: "Rate limited",
  quota_exhausted: "Quota exhausted",
  model_not_found: "Model not found",
  auth_mismatch: "Authentication failed",
  no_response: "No response",
  no_provider: "No provider configured",
  interrupted: "Interrupted",
  provider_error: "Provider error",
};

/** The notice a run event leaves in its turn (failures, cancellation, lasting warnings). */
export function noticeFromEvent(e: ChatEvent): Notice | null {
  switch (e.event) {
    case "apperror":
      return {
        kind: "error",
        title: ERROR_TITLES[e.data.type] ?? "Error",
        message: e.data.message,
        ...(e.data.hint ? { hint: e.data.hint } : {}),
      };
    case "error":
      return { kind: "error", title: "Error", message: e.data.message };
    case "cancel":
      return { kind: "cancelled", title: "Stopped", message: "Cancelled by user" };
    case "warning":
      return e.data.type === "retrying"
        ? null
        : { kind: "warning", title: "Note", message: e.data.message };
    default:
      return null;
  }
}

export type RunPhase = "running" | "done" | "cancelled" | "error";

export interface ClarifyRequest {
  clarify_id: string;
  question: string;
  choices?: string[];
}

/** A run followed live: its turn as far as the events go, and what it waits for. */
export interface LiveRun {
  sessionId: string;
  streamId: string;
  /** Highest seq applied (events at or below it are ignored). */
  seq: number;
  phase: RunPhase;
  /** True once a terminal event arrived (the server closes the stream after it). */
  ended: boolean;
  turn: TurnModel;
  approval: ApprovalEventData | null;
  clarify: ClarifyRequest | null;
  compression: "compressing" | "compressed" | null;
  /** A retry in progress ("…; retrying in 2 s"), cleared by the next output. */
  retrying: string | null;
  title: string | null;
  usage: Usage | null;
  /** A tool event came after the last text: the next token starts a new segment. */
  splitText: boolean;
  /** The last applied output was reasoning (more reasoning extends the same entry). */
  inThinking: boolean;
}

/** A run with nothing applied yet (the user message of `turnId` is already known). */
export function createLiveRun(init: {
  sessionId: string;
  streamId: string;
  turnId: string | null;
  user: TurnUser | null;
}): LiveRun {
  return {
    sessionId: init.sessionId,
    streamId: init.streamId,
    seq: 0,
    phase: "running",
    ended: false,
    turn: emptyTurn(init.turnId ?? `s${init.streamId}`, init.turnId, init.user),
    approval: null,
    clarify: null,
    compression: null,
    retrying: null,
    title: null,
    usage: null,
    splitText: false,
    inThinking: false,
  };
}

/**
 * What an applied event changed: `text` (prose grew), `thinking` (reasoning grew), `structure`
 * (anything else the view shows), `end` (a terminal event), or `none` (a duplicate).
 */
export type Change = "none" | "text" | "thinking" | "structure" | "end";

function findTool(run: LiveRun, id: string): ToolView | undefined {
  return run.turn.tools.find((t) => t.id === id);
}

function settleOpenTools(run: LiveRun): void {
  for (const t of run.turn.tools) {
    if (t.status === "running" || t.status === "pending" || t.status === "awaiting_approval") {
      t.status = "error";
    }
  }
}

/**
 * Apply one event to `run` in place. Events at or below `run.seq` are ignored, so the same
 * journal may be replayed any number of times.
 */
export function applyEvent(run: LiveRun, e: SequencedEvent): Change {
  if (e.seq <= run.seq) return "none";
  run.seq = e.seq;
  const turn = run.turn;
  switch (e.event) {
    case "token": {
      run.retrying = null;
      run.inThinking = false;
      const last = turn.segments[turn.segments.length - 1];
      if (!last || run.splitText) {
        turn.segments.push({ key: `s${turn.segments.length}`, text: e.data.text });
        run.splitText = false;
        return "structure";
      }
      last.text += e.data.text;
      return "text";
    }
    case "reasoning": {
      run.retrying = null;
      if (run.inThinking && turn.thinking.length) {
        turn.thinking[turn.thinking.length - 1] += e.data.text;
        return "thinking";
      }
      run.inThinking = true;
      turn.thinking.push(e.data.text);
      return "structure";
    }
    case "tool":
    case "tool_complete": {
      run.retrying = null;
      run.inThinking = false;
      run.splitText = true;
      const d = e.data;
      let view = findTool(run, d.tool_call_id);
      if (!view) {
        const formatted = formatArgs(d.args);
        view = {
          id: d.tool_call_id,
          name: d.name,
          target: toolTarget(d.name, d.args),
          args: formatted.text,
          argsClipped: formatted.clipped,
          status: "running",
          result: null,
          resultChars: 0,
          duration: null,
        };
        turn.tools.push(view);
      }
      if (e.event === "tool_complete") {
        const c = e.data;
        view.status = c.status && STATUSES.has(c.status)
          ? c.status
          : c.is_error
          ? "error"
          : "completed";
        Object.assign(view, clipResult(c.result_preview ?? ""));
        view.duration = c.duration;
        if (run.clarify && c.name === "clarify") run.clarify = null;
      }
      return "structure";
    }
    case "approval": {
      run.approval = e.data;
      const waiting = [...turn.tools].reverse().find((t) => t.status === "running");
      if (waiting) waiting.status = "awaiting_approval";
      return "structure";
    }
    case "approval_resolved": {
      if (!run.approval || run.approval.approval_id === e.data.approval_id) run.approval = null;
      for (const t of turn.tools) if (t.status === "awaiting_approval") t.status = "running";
      return "structure";
    }
    case "clarify":
      run.clarify = e.data;
      return "structure";
    case "todo_state":
      turn.todos = e.data.todos.map((t) => ({ id: t.id, content: t.content, status: t.status }));
      return "structure";
    case "compressing":
      run.compression = "compressing";
      return "structure";
    case "compressed":
      run.compression = "compressed";
      return "structure";
    case "metering":
      run.usage = e.data;
      return "none";
    case "warning": {
      if (e.data.type === "retrying") {
        run.retrying = e.data.message;
        return "structure";
      }
      const n = noticeFromEvent(e);
      if (n) turn.notices.push(n);
      return "structure";
    }
    case "title":
      run.title = e.data.title;
      return "structure";
    case "done": {
      run.phase = "done";
      run.usage = e.data.usage ?? run.usage;
      const records = (e.data.session as { tool_calls?: ToolCallRecord[] }).tool_calls ?? [];
      for (const r of records) {
        const view = findTool(run, r.tool_call_id);
        if (!view) continue;
        if (STATUSES.has(r.status)) view.status = r.status as ToolCallStatus;
        if (typeof r.result === "string") Object.assign(view, clipResult(r.result));
      }
      return "structure";
    }
    case "stream_end":
    case "cancel":
    case "apperror":
    case "error": {
      run.ended = true;
      run.approval = null;
      run.clarify = null;
      run.retrying = null;
      if (e.event === "cancel") run.phase = "cancelled";
      else if (e.event !== "stream_end") run.phase = "error";
      else if (run.phase === "running") run.phase = "done";
      const n = noticeFromEvent(e);
      if (n) turn.notices.push(n);
      if (run.phase !== "done") settleOpenTools(run);
      return "end";
    }
    default:
      return "none";
  }
}

/** Tools of a turn that failed or were refused: shown outside the collapsed activity. */
export function failedTools(t: Pick<TurnModel, "tools">): ToolView[] {
  return t.tools.filter((x) => x.status === "error" || x.status === "denied");
}
