// A delegated sub-task: the `delegate` tool runs the agent again in a hidden child session with
// a fresh context (only the task and the given context), the parent's workspace, model and
// sandbox, a subset of the parent's tools (never `delegate`) and its own step cap. Invariants:
// approvals and clarifying questions surface in the PARENT's stream and obey the parent
// session's grants; the parent's cancel cancels the child; a child failure is a tool error
// result, never a throw; the child's usage is stored under the child and rolls up to the
// parent turn's meter (turn.ts says why nothing is counted twice).
import type { SequencedEvent, ToolCallStatus, Usage } from "../shared/chat_events.ts";
import type { ChildTaskRequest, ToolContext, ToolDefinition, ToolResult } from "../tools/types.ts";
import { newStreamId, randomHex } from "../ids.ts";
import { appendMessages, listMessages } from "../sessions/messages.ts";
import { createDelegateSession } from "../sessions/delegate_sessions.ts";
import { claimSession, createEventAppender, releaseSession } from "./journal.ts";
import type { EngineHooks } from "./engine_hooks.ts";
import { Run } from "./run.ts";
import { sql } from "../storage/db.ts";
import { clipResult, setToolCallStatus } from "./tool_runner.ts";
import type { RunPlan, Turn } from "./turn.ts";

export const DELEGATE_TOOL_NAME = "delegate";
/** Characters of the child's final answer handed back to the parent model. */
export const MAX_CHILD_ANSWER = 20_000;

type RunAgent = (run: Run, plan: RunPlan) => Promise<void>;

/** What a child's `tool`/`tool_complete` event says about one of its calls. */
interface ChildCallView {
  tool_call_id: string;
  name: string;
  preview: string;
  status?: ToolCallStatus;
  duration?: number;
  result_preview?: string;
}

/** A run that counts its model steps (each step opens a new assistant draft). */
class ChildRun extends Run {
  steps = 0;
  onStep: (step: number) => void = () => {};
  override newDraft() {
    this.steps++;
    this.onStep(this.steps);
    return super.newDraft();
  }
}

/** The tools a child may use: the requested subset of the parent's, minus `delegate`. */
export function childTools(
  parentTools: ToolDefinition[],
  names: string[] | undefined,
): { tools: ToolDefinition[] } | { error: string } {
  const allowed = parentTools.filter((t) => t.name !== DELEGATE_TOOL_NAME);
  if (names === undefined) return { tools: allowed };
  const wanted = new Set(names);
  const unknown = [...wanted].filter((n) => !allowed.some((t) => t.name === n));
  if (unknown.length) {
    return {
      error: `The sub-task cannot use ${unknown.map((n) => `"${n}"`).join(", ")}: a delegated ` +
        `task may only use tools this agent has (never delegate). Available: ${
          allowed.map((t) => t.name).join(", ")
        }.`,
    };
  }
  return { tools: allowed.filter((t) => wanted.has(t.name)) };
}

function childPrompt(req: ChildTaskRequest, maxSteps: number): string {
  return [
    "You are a sub-agent working on one task delegated by another agent. You see none of its " +
    `conversation, only what follows. You have at most ${maxSteps} model steps. When done, ` +
    "answer with a concise, self-contained report: it is returned verbatim to that agent.",
    `## Task\n${req.task.trim()}`,
    ...(req.context?.trim() ? [`## Context\n${req.context.trim()}`] : []),
  ].join("\n\n");
}

async function usageOfStream(c: Turn, streamId: string): Promise<Usage | null> {
  type Num = number | string;
  const row = await c.plan.app.db.get<
    { n: Num; i: Num; o: Num; k: Num; cost: Num | null; priced: Num; est: Num }
  >(
    sql`SELECT count(*) AS n, coalesce(sum(input_tokens), 0) AS i,
          coalesce(sum(output_tokens), 0) AS o, coalesce(sum(cached_tokens), 0) AS k,
          sum(cost) AS cost, count(cost) AS priced, coalesce(max(estimated), 0) AS est
        FROM usage WHERE stream_id = ${streamId}`,
  );
  const n = Number(row?.n ?? 0);
  if (!row || !n) return null;
  return {
    input_tokens: Number(row.i),
    output_tokens: Number(row.o),
    cached_tokens: Number(row.k),
    estimated_cost: Number(row.priced) === n && row.cost !== null ? Number(row.cost) : null,
    estimated: Number(row.est) > 0,
  };
}

/**
 * Run `req` as a child of the turn `c`, whose `delegate` call is the run's active tool call.
 * Never throws: every failure is an error result the parent model can read.
 */
export async function runChildTask(
  c: Turn,
  parentTools: ToolDefinition[],
  parentCtx: ToolContext,
  req: ChildTaskRequest,
  runAgent: RunAgent,
): Promise<ToolResult> {
  const { run: parent, plan } = c;
  const { app, opts } = plan;
  if (plan.delegated) {
    return { output: "A delegated task cannot delegate again.", isError: true };
  }
  const picked = childTools(parentTools, req.tools);
  if ("error" in picked) return { output: picked.error, isError: true };
  const callId = parent.activeToolCallId ?? "delegate";
  const maxSteps = opts.delegateMaxSteps;
  let child: ChildRun | undefined;
  let childStream: string | null = null;
  let unsubscribe = () => {};
  /** The child's end after a cancel of the parent, awaited before the result is read. */
  let cancelled: Promise<unknown> = Promise.resolve();
  const onAbort = () => {
    if (!child || child.finished) return;
    child.controller.abort(new Error("the parent run was cancelled"));
    // As RunManager.cancel: the tool call's mark starts first, the end at once after it.
    const marked = child.activeToolCallId
      ? setToolCallStatus(app.db, child.sessionId, child.activeToolCallId, "error", {
        result: "Cancelled with the parent run",
        duration: 0,
      })
      : Promise.resolve();
    const ended = child.end("cancelled", [{
      event: "cancel",
      data: { message: "Cancelled with the parent run", type: "cancelled" },
    }]);
    cancelled = Promise.allSettled([marked, ended]);
    parent.holdEnd(cancelled);
  };
  try {
    const session = await createDelegateSession(app.db, app.clock, {
      parent: c.session,
      toolCallId: callId,
      model: c.model,
      modelProvider: c.session.model_provider,
      title: `Delegated: ${req.task.replace(/\s+/g, " ").trim().slice(0, 60)}`,
    });
    const streamId = newStreamId();
    const turnId = randomHex(16);
    // The child runs in its parent's process: it takes the parent's owner and lease, and the
    // parent's manager renews it with the parent's (on a shared database a run with no lease is
    // another replica's to recover as dead).
    const lease = await app.db.get<{ owner_replica: string | null; lease_until: number | null }>(
      sql`SELECT owner_replica, lease_until FROM streams WHERE stream_id = ${parent.streamId}`,
    );
    // Renewed with the parent's from before the claim: it awaits the database, and the lease
    // taken from the parent's row must not lapse meanwhile (a sweep would close the child).
    parent.childStreams.add(streamId);
    childStream = streamId;
    const claimed = await claimSession(app.db, app.clock, {
      streamId,
      sessionId: session.session_id,
      turnId,
      model: c.model,
      modelProvider: c.session.model_provider,
      ownerReplica: lease?.owner_replica ?? undefined,
      leaseUntil: lease?.lease_until ?? undefined,
    });
    if (!claimed.ok) {
      throw new Error(
        `could not start the child run: stream ${claimed.conflict} holds its session`,
      );
    }
    await appendMessages(app.db, app.clock, session.session_id, [{
      role: "user",
      content: childPrompt(req, maxSteps),
      turn_id: turnId,
    }]);
    child = new ChildRun({
      db: app.db,
      clock: app.clock,
      log: app.log,
      append: createEventAppender(app.db, app.clock),
      persistIntervalMs: opts.persistIntervalMs,
    }, { streamId, sessionId: session.session_id, turnId });

    const progress = (childCall: ChildCallView) =>
      parent.emit({
        event: "tool_progress",
        data: {
          event_type: "tool.progress",
          tool_call_id: callId,
          child_session_id: session.session_id,
          step: child!.steps,
          child: {
            tool_call_id: childCall.tool_call_id,
            name: childCall.name,
            preview: childCall.preview,
            status: childCall.status ?? "running",
            ...(childCall.duration !== undefined ? { duration: childCall.duration } : {}),
            ...(childCall.result_preview !== undefined
              ? { result_preview: childCall.result_preview }
              : {}),
          },
        },
      });
    let failure: string | null = null;
    let hitStepCap = false;
    const started = new Map<string, ChildCallView>();
    unsubscribe = child.subscribe((e: SequencedEvent) => {
      if (e.event === "tool") {
        started.set(e.data.tool_call_id, e.data);
        progress({ ...e.data, status: "running" });
      } else if (e.event === "tool_complete") progress(e.data);
      else if (e.event === "apperror" || e.event === "error") failure = e.data.message;
      else if (e.event === "warning" && e.data.type === "step_limit") hitStepCap = true;
    });

    // The child reaches approvals, clarify and the network switch through the PARENT, so the
    // user answers in the conversation they are looking at, under that session's grants.
    const hooks: EngineHooks = {
      buildTools: () => picked.tools,
      async requestApproval(_app, childRun, r) {
        const call = started.get(childRun.activeToolCallId ?? "");
        if (call) progress({ ...call, status: "awaiting_approval" });
        try {
          return await parentCtx.requestApproval(r);
        } finally {
          if (call && !childRun.finished) progress({ ...call, status: "running" });
        }
      },
      askClarify: (_app, _run, q, choices) => parentCtx.askClarify(q, choices),
      allowNetwork: () => parentCtx.allowNetwork,
    };
    if (parent.signal.aborted) onAbort();
    parent.signal.addEventListener("abort", onAbort);
    await runAgent(child, {
      app,
      opts: { ...opts, maxSteps, hooks, onRunEnd: undefined },
      mode: "chat",
      delegated: true,
    });
    await cancelled;

    const usage = await usageOfStream(c, streamId);
    if (usage) c.meter.addChild(usage);
    if (parent.signal.aborted || child.status === "cancelled") {
      return { output: "The delegated task was cancelled.", isError: true };
    }
    if (child.status !== "done") {
      return {
        output: `The delegated task failed: ${failure ?? "the child run stopped unexpectedly"}`,
        isError: true,
      };
    }
    const answer = (await listMessages(app.db, session.session_id))
      .findLast((m) => m.role === "assistant" && typeof m.content === "string" && m.content.trim());
    const text = typeof answer?.content === "string" ? answer.content.trim() : "";
    const note = hitStepCap
      ? `[The sub-task stopped at its cap of ${maxSteps} model steps; its report may be incomplete.]\n`
      : "";
    if (!text) {
      return { output: `${note}The delegated task ended without an answer.`, isError: true };
    }
    return { output: note + clipResult(text, MAX_CHILD_ANSWER) };
  } catch (err) {
    app.log.error("delegated task failed", { error: String(err) });
    try {
      await cancelled;
      if (child && !child.finished) {
        await child.end("error", [{ event: "error", data: { message: String(err) } }]);
      } else if (child) await releaseSession(app.db, child.sessionId, child.streamId);
    } catch (e) {
      app.log.error("could not close a failed delegated task", { error: String(e) });
    }
    return {
      output: `The delegated task failed: ${(err as Error)?.message ?? err}`,
      isError: true,
    };
  } finally {
    parent.signal.removeEventListener("abort", onAbort);
    unsubscribe();
    if (childStream) parent.childStreams.delete(childStream);
  }
}
