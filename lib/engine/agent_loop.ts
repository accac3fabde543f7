// The agent loop of one run: model step → tool calls → results → next step, until the model
// answers without tools or the step cap is reached; then metering, `done` and `stream_end`.
// Invariants: the loop never throws out of `runAgent` (every failure ends the run with an
// `apperror`/`error` event); it stops touching the transcript as soon as the run has ended
// (cancel, shutdown); the transcript always has a result for each tool call it records.
import { sharedFilesDir } from "../settings/config.ts";
import { NO_TRACE, type RunTrace, type StepEnd } from "../telemetry/run_tracer.ts";
import { appendMessages, listMessages, type MessageToolCall } from "../sessions/messages.ts";
import { fullSession, getSession } from "../sessions/sessions.ts";
import { pickEndpoint, providerSetupHint, resolveProviders } from "../providers/provider_config.ts";
import { releaseSession } from "./journal.ts";
import { contextWindowFor } from "../models/known_models.ts";
import { streamModelStepWithRetry, type ToolSpec } from "../providers/model_stream.ts";
import { ProviderFailure } from "../providers/provider_errors.ts";
import type { ToolContext, ToolDefinition, ToolResult } from "../tools/types.ts";
import { runToolCall } from "../tools/registry.ts";
import { sql } from "../storage/db.ts";
import { estimateTokens, getCompression, summarySection } from "./compression.ts";
import { messagesChars, parseToolArgs, toModelMessages } from "./model_messages.ts";
import type { Run } from "./run.ts";
import { compress, compressOnly } from "./summarize.ts";
import { startAutoTitle } from "./titles.ts";
import { sessionReasoning } from "../sessions/session_reasoning.ts";
import { buildSystemPrompt } from "./system_prompt.ts";
import { runChildTask } from "./child_run.ts";
import { closeSteerInbox, drainSteer, openSteerInbox, steerPending } from "./steer.ts";
import { beginToolCheckpoint } from "../checkpoints/tool_checkpoints.ts";
import {
  clipResult,
  completeEventData,
  insertToolCall,
  type ModelToolCall,
  setToolCallStatus,
  toolPreview,
  uniqueToolCallId,
} from "./tool_runner.ts";
import { toolInputSchema } from "./tool_schema.ts";
import {
  Meter,
  recordUsage,
  retryWarning,
  type RunPlan,
  type StepCounts,
  type Turn,
} from "./turn.ts";

export type { RunMode, RunPlan } from "./turn.ts";

/** Run the agent for `run`. Never throws. */
export async function runAgent(run: Run, plan: RunPlan): Promise<void> {
  const { app } = plan;
  const meter = new Meter();
  let modelForUsage: string | null = null;
  let endpointId: string | null = null;
  let trace: RunTrace = NO_TRACE;
  let outcome: { status: "done" | "error" | "cancelled"; error?: string } = { status: "cancelled" };
  try {
    if (plan.title) {
      run.emit({ event: "title", data: { session_id: run.sessionId, title: plan.title } });
    }
    const session = await getSession(app.db, run.sessionId);
    const resolved = resolveProviders(app.config, app.log);
    const endpoint = pickEndpoint(resolved, session.model_provider);
    const model = session.model ??
      (endpoint && endpoint === resolved.active ? resolved.defaultModel : endpoint?.models[0]) ??
      null;
    if (!endpoint || !model) {
      const message = !endpoint
        ? (session.model_provider && resolved.active
          ? `Provider "${session.model_provider}" is not configured`
          : resolved.issue ?? "No LLM provider is configured")
        : `No model is selected for ${endpoint.label}`;
      await run.end("error", [
        {
          event: "apperror",
          data: { type: "no_provider", message, hint: providerSetupHint(app.config.configPath) },
        },
        { event: "stream_end", data: { session_id: run.sessionId } },
      ]);
      return;
    }
    modelForUsage = model;
    endpointId = endpoint.id;
    trace = plan.opts.telemetry?.startRun({
      sessionId: run.sessionId,
      streamId: run.streamId,
      turnId: run.turnId,
      model,
      provider: endpoint.id,
      baseUrl: endpoint.baseUrl,
    }) ?? NO_TRACE;
    const ctx: Turn = { run, plan, session, endpoint, model, meter, trace };
    if (plan.mode === "compress") await compressOnly(ctx);
    else await chatLoop(ctx);
    if (run.finished) return;
    if (plan.mode === "chat" && !plan.delegated && plan.opts.autoTitle) {
      await startAutoTitle(app, run, { fetch: plan.opts.fetch });
    }
    await recordUsage(run, plan, meter, model, endpoint.id);
    if (plan.mode === "chat" && meter.lastInput > 0) {
      await app.db.run(
        sql`UPDATE sessions SET last_input_tokens = ${meter.lastInput}
            WHERE session_id = ${run.sessionId}`,
      );
    }
    outcome = { status: "done" };
    // The session is free before `done` is built, so its snapshot says so.
    await releaseSession(app.db, run.sessionId, run.streamId);
    const snapshot = await fullSession(app.db, run.sessionId);
    await run.end("done", [
      {
        event: "done",
        data: {
          session: snapshot as unknown as Record<string, unknown>,
          usage: meter.usage(),
        },
      },
      { event: "stream_end", data: { session_id: run.sessionId } },
    ]);
  } catch (err) {
    outcome = {
      status: "error",
      error: err instanceof ProviderFailure ? err.kind : (err as Error)?.name ?? "error",
    };
    if (run.finished) return;
    if (meter.steps > 0 && modelForUsage) {
      try {
        await recordUsage(run, plan, meter, modelForUsage, endpointId);
      } catch { /* usage is best effort on the error path */ }
    }
    if (err instanceof ProviderFailure) {
      await run.end("error", [
        {
          event: "apperror",
          data: {
            type: err.kind,
            message: err.message,
            ...(err.hint ? { hint: err.hint } : {}),
            ...(err.details ? { details: err.details } : {}),
          },
        },
        { event: "stream_end", data: { session_id: run.sessionId } },
      ]);
      return;
    }
    app.log.error("agent run failed", {
      stream_id: run.streamId,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    await run.end("error", [
      {
        event: "error",
        data: { message: `Internal error: ${(err as Error)?.message ?? String(err)}` },
      },
      { event: "stream_end", data: { session_id: run.sessionId } },
    ]);
  } finally {
    trace.end(outcome.status, outcome.error);
    plan.opts.onRunEnd?.({
      sessionId: run.sessionId,
      streamId: run.streamId,
      status: plan.mode === "compress" ? "compress" : outcome.status,
    });
  }
}

async function chatLoop(c: Turn): Promise<void> {
  const { run, plan, session, endpoint, model, meter } = c;
  const { app, opts } = plan;
  const tools: ToolDefinition[] = await opts.hooks.buildTools(app, session);
  const specs: ToolSpec[] = tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: toolInputSchema(t),
  }));
  const basePrompt = await buildSystemPrompt(app, session, { tools, model });
  const toolsChars = JSON.stringify(specs).length;
  const window = contextWindowFor(model, opts.contextWindows);
  const root = { stateDir: sharedFilesDir(app.config), sessionId: run.sessionId };
  const toolCtx = makeToolContext(c, tools);

  // Steer hook (steer.ts): notes sent mid-run become user messages before the next step.
  openSteerInbox(run);
  let stored = await listMessages(app.db, run.sessionId);
  let compression = await getCompression(app.db, run.sessionId, stored);
  for (let step = 1;; step++) {
    if (run.finished) return;
    if (await drainSteer(run, app.db, app.clock)) {
      stored = await listMessages(app.db, run.sessionId);
    }
    let history = stored.filter((m) => m.idx >= (compression?.uptoIdx ?? 0));
    let messages = await toModelMessages(history, root);
    let system = compression
      ? `${basePrompt}\n\n${summarySection(compression.summary)}`
      : basePrompt;
    const estimate = estimateTokens(system) + Math.ceil((messagesChars(messages) + toolsChars) / 4);
    if (estimate > opts.compressionThreshold * window) {
      let next = await compress(c, stored, compression, 2);
      if (next === compression) next = await compress(c, stored, compression, 1);
      if (run.finished) return;
      if (next !== compression) {
        compression = next;
        history = stored.filter((m) => m.idx >= (compression?.uptoIdx ?? 0));
        messages = await toModelMessages(history, root);
        system = `${basePrompt}\n\n${summarySection(compression!.summary)}`;
      }
    }

    const draft = run.newDraft();
    const calls: ModelToolCall[] = [];
    /** What this step cost when the provider says nothing: characters ÷ 4, flagged. */
    const estimated = (): StepCounts => ({
      inputTokens: Math.ceil((system.length + messagesChars(messages) + toolsChars) / 4),
      outputTokens: estimateTokens(draft.content + draft.reasoning),
      cachedTokens: 0,
      reported: false,
    });
    meter.beginStep();
    let finished = false;
    const span = c.trace.step(step);
    const reasoning = await sessionReasoning(app.db, run.sessionId);
    let stepEnd: StepEnd = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, finishReason: null };
    try {
      for await (
        const part of streamModelStepWithRetry(
          {
            endpoint,
            model,
            system,
            messages,
            tools: specs,
            signal: run.signal,
            idleTimeoutMs: opts.idleTimeoutMs,
            configPath: app.config.configPath,
            reasoning: reasoning ?? opts.reasoning,
            fetch: opts.fetch,
          },
          opts.retry,
          retryWarning(run),
        )
      ) {
        if (run.finished) return;
        switch (part.type) {
          case "text":
            meter.sawOutput();
            run.delta("token", part.text);
            break;
          case "reasoning":
            meter.sawOutput();
            run.delta("reasoning", part.text);
            break;
          case "tool-call":
            meter.sawOutput();
            calls.push({ id: part.id, name: part.name, args: parseToolArgs(part.input) });
            break;
          case "finish": {
            finished = true;
            const usage = part.usage.reported ? part.usage : estimated();
            meter.endStep(model, usage, opts.pricing);
            stepEnd = { ...usage, finishReason: part.finishReason };
            break;
          }
        }
      }
    } catch (err) {
      stepEnd.error = err instanceof ProviderFailure ? err.kind : (err as Error)?.name ?? "error";
      throw err;
    } finally {
      span.end(stepEnd);
    }
    if (run.finished) return;
    if (!finished) meter.endStep(model, estimated(), opts.pricing);

    for (const call of calls) call.id = await uniqueToolCallId(app.db, run.sessionId, call.id);
    if (calls.length) {
      draft.setToolCalls(calls.map((tc): MessageToolCall => ({
        id: tc.id,
        type: "function",
        function: { name: tc.name, arguments: JSON.stringify(tc.args) },
      })));
    }
    // Saved before anything else of this step is stored (tool results follow it).
    await draft.persist();
    if (run.finished) return;
    if (calls.length === 0) {
      // A note that came in during the last step gets its answer before the turn ends.
      if (steerPending(run) && step < opts.maxSteps) continue;
      await closeSteerInbox(run, app.db, app.clock);
      if (draft.isEmpty) {
        run.emit({
          event: "warning",
          data: { type: "empty_response", message: `${model} returned an empty answer.` },
        });
      }
      return;
    }

    for (const call of calls) {
      if (run.finished) return;
      await runOneTool(c, tools, call, toolCtx);
    }
    if (run.finished) return;
    stored = await listMessages(app.db, run.sessionId);
    if (step >= opts.maxSteps) {
      await closeSteerInbox(run, app.db, app.clock);
      run.emit({
        event: "warning",
        data: {
          type: "step_limit",
          message:
            `Stopped after ${opts.maxSteps} model steps in one turn; send a message to let the agent continue.`,
        },
      });
      return;
    }
  }
}

async function runOneTool(
  c: Turn,
  tools: ToolDefinition[],
  call: ModelToolCall,
  ctx: ToolContext,
): Promise<void> {
  const { run, plan } = c;
  const { db, clock } = plan.app;
  await insertToolCall(db, clock, run.sessionId, run.turnId, call);
  c.meter.tools++;
  // Active from the moment anyone can hear of the call: a cancel arriving while its "running"
  // mark is still being written knows which call to mark as cancelled.
  run.activeToolCallId = call.id;
  run.emit({
    event: "tool",
    data: {
      event_type: "tool.started",
      tool_call_id: call.id,
      name: call.name,
      preview: toolPreview(call.name, call.args),
      args: call.args,
    },
  });
  await setToolCallStatus(db, run.sessionId, call.id, "running");
  if (run.signal.aborted) {
    // Cancelled while "running" was being written: the cancel's own mark may have landed first
    // and been overwritten by it, so the call is marked again, and never runs.
    await setToolCallStatus(db, run.sessionId, call.id, "error", {
      result: "Cancelled before it started",
      duration: 0,
    });
    run.activeToolCallId = null;
    return;
  }
  // Checkpoints (lib/checkpoints): capture what this call may change, record it after the call.
  const checkpoint = await beginToolCheckpoint(plan.app, {
    sessionId: run.sessionId,
    turnId: run.turnId,
    toolCallId: call.id,
    tool: call.name,
    args: call.args,
    workspace: ctx.workspace,
  });
  const started = performance.now();
  const span = c.trace.tool(call.name, call.id);
  let result: ToolResult = { output: "", isError: true };
  try {
    const raw = call.args._raw_arguments;
    result = await runToolCall(tools, call.name, typeof raw === "string" ? raw : call.args, ctx);
  } catch (err) {
    if (run.finished) return;
    result = {
      output: `Error: ${call.name} failed: ${(err as Error)?.message ?? String(err)}`,
      isError: true,
    };
  } finally {
    await checkpoint?.finish();
    run.activeToolCallId = null;
    span.end({ isError: !!result.isError });
  }
  if (run.finished) return;
  const duration = (performance.now() - started) / 1000;
  const data = completeEventData(call, result, duration);
  const output = clipResult(result.output);
  await setToolCallStatus(db, run.sessionId, call.id, data.status!, {
    result: output,
    duration: data.duration,
  });
  await appendMessages(db, clock, run.sessionId, [{
    role: "tool",
    tool_call_id: call.id,
    name: call.name,
    content: output,
    turn_id: run.turnId,
  }]);
  if (data.diff) {
    await db.run(
      sql`UPDATE tool_calls SET diff = ${JSON.stringify(data.diff)}
          WHERE session_id = ${run.sessionId} AND tool_call_id = ${call.id}`,
    );
  }
  run.emit({ event: "tool_complete", data });
}

function makeToolContext(c: Turn, tools: ToolDefinition[]): ToolContext {
  const { run, plan, session } = c;
  const { app, opts } = plan;
  const ctx: ToolContext = {
    sessionId: run.sessionId,
    streamId: run.streamId,
    workspace: session.workspace,
    signal: run.signal,
    emit: (e) => run.emit(e),
    async requestApproval(req) {
      const id = run.activeToolCallId;
      if (id) await setToolCallStatus(app.db, run.sessionId, id, "awaiting_approval");
      try {
        return await opts.hooks.requestApproval(app, run, req);
      } finally {
        if (id && !run.finished) await setToolCallStatus(app.db, run.sessionId, id, "running");
      }
    },
    askClarify: (question, choices) => opts.hooks.askClarify(app, run, question, choices),
    allowNetwork: opts.hooks.allowNetwork(app, session),
  };
  // Delegation hook (child_run.ts): top-level runs only, so a child can never delegate.
  if (!plan.delegated) ctx.runChild = (req) => runChildTask(c, tools, ctx, req, runAgent);
  return ctx;
}
