// Browser-safe: imports nothing from Deno or the database.
// A run followed live: the ChatEvents of its stream applied one by one to its turn, and what
// it waits for (an approval, a clarification). Invariant: a live run applies each seq at most
// once, so a replayed journal never doubles text; applying is in place and reports what changed.
import type {
  ApprovalEventData,
  ChatEvent,
  SequencedEvent,
  ToolCallStatus,
  Usage,
} from "./chat_events.ts";
import {
  clipResult,
  emptyTurn,
  formatArgs,
  type Notice,
  STATUSES,
  type ToolCallRecord,
  toolTarget,
  type ToolView,
  type TurnModel,
  type TurnUser,
} from "./transcript_turns.ts";
import { t } from "../i18n/t.ts";

/** Catalog keys of the error notices' titles, by apperror type. */
const ERROR_TITLES: Record<string, string> = {
  rate_limit: "transcript.errorRateLimited",
  quota_exhausted: "transcript.errorQuota",
  model_not_found: "transcript.errorModelNotFound",
  auth_mismatch: "transcript.errorAuth",
  no_response: "transcript.errorNoResponse",
  no_provider: "transcript.errorNoProvider",
  interrupted: "transcript.errorInterrupted",
  provider_error: "transcript.errorProvider",
};

/**
 * The notice a run event leaves in its turn (failures, cancellation, lasting warnings). Its
 * title is written in the active locale (the page's in the browser; English outside a render).
 */
export function noticeFromEvent(e: ChatEvent): Notice | null {
  switch (e.event) {
    case "apperror":
      return {
        kind: "error",
        title: t(ERROR_TITLES[e.data.type] ?? "common.error"),
        message: e.data.message,
        ...(e.data.hint ? { hint: e.data.hint } : {}),
        ...(e.data.type === "no_provider"
          ? { link: { href: "/onboarding", label: t("transcript.setUpProvider") } }
          : {}),
        ...(e.data.type === "interrupted" ? { retry: true } : {}),
      };
    case "error":
      return { kind: "error", title: t("common.error"), message: e.data.message };
    case "cancel":
      return {
        kind: "cancelled",
        title: t("transcript.stopped"),
        message: t("transcript.cancelledByUser"),
      };
    case "warning":
      return e.data.type === "retrying"
        ? null
        : { kind: "warning", title: t("transcript.note"), message: e.data.message };
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
  /** A standing goal started this run by itself (`goal_continue`): shown as a quiet divider. */
  goal?: { turn: number; max_turns: number; reason: string } | null;
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
    goal: null,
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
  for (const t of run.turn.tools.flatMap((t) => [t, ...(t.children ?? [])])) {
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
        turn.order.push({ kind: "text", key: `s${turn.segments.length}` });
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
      turn.order.push({ kind: "thinking", i: turn.thinking.push(e.data.text) - 1 });
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
        turn.order.push({ kind: "tool", id: view.id });
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
    case "tool_progress": {
      // A delegated child's call, nested under the parent's delegate card.
      const parent = findTool(run, e.data.tool_call_id);
      if (!parent) return "none";
      const c = e.data.child;
      parent.childSessionId = e.data.child_session_id;
      const children = parent.children ??= [];
      let view = children.find((t) => t.id === c.tool_call_id);
      if (!view) {
        view = {
          id: c.tool_call_id,
          name: c.name,
          target: c.preview,
          args: "",
          argsClipped: true,
          status: "running",
          result: null,
          resultChars: 0,
          duration: null,
        };
        children.push(view);
      }
      view.status = STATUSES.has(c.status) ? c.status : "running";
      if (c.result_preview !== undefined) Object.assign(view, clipResult(c.result_preview));
      if (c.duration !== undefined) view.duration = c.duration;
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
    case "goal_continue":
      run.goal = { turn: e.data.turn, max_turns: e.data.max_turns, reason: e.data.reason };
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
