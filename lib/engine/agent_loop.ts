// The agent loop of one run: model step → tool calls → results → next step, until the model
// answers without tools or the step cap is reached; then metering, `done` and `stream_end`.
// Invariants: the loop never throws out of `runAgent` (every failure ends the run with an
// `apperror`/`error` event); it stops touching the transcript as soon as the run has ended
// (cancel, shutdown); the transcript always has a result for each tool call it records.
import type { AppContext } from "../app_context.ts";
import type { Usage } from "../chat_events.ts";
import { listMessages, appendMessages, type MessageToolCall, type StoredMessage } from "../messages.ts";
import { addUsage, fullSession, getSession, type SessionRow } from "../sessions.ts";
import { pickEndpoint, type ProviderEndpoint, providerSetupHint, resolveProviders } from "../provider_config.ts";
import { contextWindowFor, estimateTokens } from "../providers/context_windows.ts";
import { streamModelStepWithRetry, type ToolSpec } from "../providers/model_stream.ts";
import { ProviderFailure } from "../providers/provider_errors.ts";
import { estimateCost } from "../providers/pricing.ts";
import type { ToolContext, ToolDefinition } from "../tools/types.ts";
import { runToolCall } from "../tools/registry.ts";
import {
  getCompression,
  messagesToSummarize,
  planCut,
  saveCompression,
  SUMMARY_SYSTEM_PROMPT,
  summaryRequest,
  summarySection,
  type CompressionState,
} from "./compression.ts";
import { messagesChars, parseToolArgs, toModelMessages } from "./model_messages.ts";
import type { Run } from "./run.ts";
import { releaseSession } from "../journal.ts";
import { buildSystemPrompt } from "./system_prompt.ts";
import {
  clipResult,
  completeEventData,
  insertToolCall,
  type ModelToolCall,
  setToolCallStatus,
  toolInputSchema,
  toolPreview,
  uniqueToolCallId,
} from "./tool_runner.ts";
import type { EngineOptions } from "./engine_options.ts";

export type RunMode = "chat" | "compress";

export interface RunPlan {
  app: AppContext;
  opts: EngineOptions;
  mode: RunMode;
  /** A title set by this turn, announced first. */
  title?: string;
}

/** Token and timing totals of a run across its model steps. */
class Meter {
  input = 0;
  output = 0;
  cached = 0;
  cost: number | null = 0;
  steps = 0;
  tools = 0;
  ttftMs: number | null = null;
  genMs = 0;
  private stepStart = 0;
  private firstAt: number | null = null;
  private lastAt = 0;

  beginStep(): void {
    this.stepStart = performance.now();
    this.firstAt = null;
  }
  sawOutput(): void {
    const now = performance.now();
    if (this.firstAt === null) {
      this.firstAt = now;
      if (this.ttftMs === null) this.ttftMs = Math.round(now - this.stepStart);
    }
    this.lastAt = now;
  }
  endStep(
    model: string,
    usage: { inputTokens: number; outputTokens: number; cachedTokens: number },
    pricing: EngineOptions["pricing"],
  ): void {
    this.steps++;
    this.input += usage.inputTokens;
    this.output += usage.outputTokens;
    this.cached += usage.cachedTokens;
    if (this.firstAt !== null) this.genMs += Math.max(0, this.lastAt - this.firstAt);
    const c = estimateCost(model, usage, pricing);
    this.cost = c === null || this.cost === null ? null : this.cost + c;
  }
  usage(): Usage {
    return {
      input_tokens: this.input,
      output_tokens: this.output,
      cached_tokens: this.cached,
      estimated_cost: this.steps ? this.cost : null,
    };
  }
  tokensPerSecond(): number | null {
    if (this.output <= 0 || this.genMs < 1) return null;
    return Math.round((this.output / (this.genMs / 1000)) * 10) / 10;
  }
}

/** Run the agent for `run`. Never throws. */
export async function runAgent(run: Run, plan: RunPlan): Promise<void> {
  const { app } = plan;
  const meter = new Meter();
  let modelForUsage: string | null = null;
  let endpointId: string | null = null;
  try {
    if (plan.title) run.emit({ event: "title", data: { session_id: run.sessionId, title: plan.title } });
    const session = getSession(app.db, run.sessionId);
    const resolved = resolveProviders(app.config, app.log);
    const endpoint = pickEndpoint(resolved, session.model_provider);
    const model = session.model ??
      (endpoint && endpoint === resolved.active ? resolved.defaultModel : endpoint?.models[0]) ?? null;
    if (!endpoint || !model) {
      const message = !endpoint
        ? (session.model_provider && resolved.active
          ? `Provider "${session.model_provider}" is not configured`
          : resolved.issue ?? "No LLM provider is configured")
        : `No model is selected for ${endpoint.label}`;
      run.end("error", [
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
    const ctx = { run, plan, session, endpoint, model, meter };
    if (plan.mode === "compress") await compressOnly(ctx);
    else await chatLoop(ctx);
    if (run.finished) return;
    finishWithUsage(run, plan, meter, model, endpoint.id);
    // The session is free before `done` is built, so its snapshot says so.
    releaseSession(app.db, run.sessionId, run.streamId);
    run.end("done", [
      { event: "done", data: { session: fullSession(app.db, run.sessionId) as unknown as Record<string, unknown>, usage: meter.usage() } },
      { event: "stream_end", data: { session_id: run.sessionId } },
    ]);
  } catch (err) {
    if (run.finished) return;
    if (meter.steps > 0 && modelForUsage) {
      try {
        finishWithUsage(run, plan, meter, modelForUsage, endpointId);
      } catch { /* usage is best effort on the error path */ }
    }
    if (err instanceof ProviderFailure) {
      run.end("error", [
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
    run.end("error", [
      { event: "error", data: { message: `Internal error: ${(err as Error)?.message ?? String(err)}` } },
      { event: "stream_end", data: { session_id: run.sessionId } },
    ]);
  }
}

interface LoopCtx {
  run: Run;
  plan: RunPlan;
  session: SessionRow;
  endpoint: ProviderEndpoint;
  model: string;
  meter: Meter;
}

function finishWithUsage(run: Run, plan: RunPlan, meter: Meter, model: string, provider: string | null): void {
  if (meter.steps === 0) return;
  const usage = meter.usage();
  const tokensPerS = meter.tokensPerSecond();
  run.emit({
    event: "metering",
    data: { ...usage, ttft_ms: meter.ttftMs, tokens_per_s: tokensPerS },
  });
  const { db, clock } = plan.app;
  db.prepare(
    `INSERT INTO usage (session_id, stream_id, model, model_provider, input_tokens, output_tokens,
       cached_tokens, cost, ttft_ms, tokens_per_s, tool_count, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    run.sessionId,
    run.streamId,
    model,
    provider,
    usage.input_tokens,
    usage.output_tokens,
    usage.cached_tokens ?? 0,
    usage.estimated_cost ?? null,
    meter.ttftMs,
    tokensPerS,
    meter.tools,
    clock(),
  );
  addUsage(db, run.sessionId, usage);
}

function retryWarning(run: Run) {
  return (failure: ProviderFailure, attempt: number, delayMs: number) =>
    run.emit({
      event: "warning",
      data: {
        type: "retrying",
        message: `${failure.message}; retrying in ${Math.max(1, Math.round(delayMs / 1000))} s (attempt ${
          attempt + 1
        })`,
      },
    });
}

/** Stream one model step without showing it (summaries). Returns the text. */
async function collectText(c: LoopCtx, system: string, user: string): Promise<string> {
  let text = "";
  for await (
    const part of streamModelStepWithRetry({
      endpoint: c.endpoint,
      model: c.model,
      system,
      messages: [{ role: "user", content: user }],
      tools: [],
      signal: c.run.signal,
      idleTimeoutMs: c.plan.opts.idleTimeoutMs,
      configPath: c.plan.app.config.configPath,
      fetch: c.plan.opts.fetch,
    }, c.plan.opts.retry, retryWarning(c.run))
  ) {
    if (part.type === "text") text += part.text;
    else if (part.type === "finish") {
      c.meter.endStep(c.model, part.usage.reported ? part.usage : {
        inputTokens: estimateTokens(system + user),
        outputTokens: estimateTokens(text),
        cachedTokens: 0,
      }, c.plan.opts.pricing);
    }
  }
  return text.trim();
}

/**
 * Summarize the turns before the cut and store the summary. Returns the new state, or the
 * current one when there is nothing (new) to compress.
 */
async function compress(
  c: LoopCtx,
  stored: StoredMessage[],
  current: CompressionState | null,
  keepTurns: number,
): Promise<CompressionState | null> {
  const cut = planCut(stored, current, keepTurns);
  if (cut === null) return current;
  const batch = messagesToSummarize(stored, current, cut);
  c.run.emit({
    event: "compressing",
    data: { session_id: c.run.sessionId, message: `Compressing ${batch.length} earlier messages…` },
  });
  const before = c.meter.usage();
  const summary = await collectText(c, SUMMARY_SYSTEM_PROMPT, summaryRequest(current?.summary ?? null, batch));
  if (c.run.finished) return current;
  if (!summary) {
    c.run.emit({ event: "warning", data: { type: "compression_failed", message: "The model returned an empty summary; the conversation was not compressed." } });
    return current;
  }
  const state = { uptoIdx: cut, summary };
  saveCompression(c.plan.app.db, c.plan.app.clock, c.run.sessionId, state, stored);
  const after = c.meter.usage();
  c.run.emit({
    event: "compressed",
    data: {
      session_id: c.run.sessionId,
      message: `Context compressed: ${cut} earlier messages are now a summary`,
      usage: {
        input_tokens: after.input_tokens - before.input_tokens,
        output_tokens: after.output_tokens - before.output_tokens,
      },
    },
  });
  return state;
}

async function compressOnly(c: LoopCtx): Promise<void> {
  const stored = listMessages(c.plan.app.db, c.run.sessionId);
  const current = getCompression(c.plan.app.db, c.run.sessionId, stored);
  const next = await compress(c, stored, current, 1);
  if (next === current && !c.run.finished) {
    c.run.emit({
      event: "warning",
      data: { type: "nothing_to_compress", message: "There are no earlier turns to compress yet." },
    });
  }
}

async function chatLoop(c: LoopCtx): Promise<void> {
  const { run, plan, session, endpoint, model, meter } = c;
  const { app, opts } = plan;
  const tools: ToolDefinition[] = await opts.hooks.buildTools(app, session);
  const specs: ToolSpec[] = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: toolInputSchema(t) }));
  const basePrompt = await buildSystemPrompt(app, session, { tools, model });
  const toolsChars = JSON.stringify(specs).length;
  const window = contextWindowFor(model, opts.contextWindows);
  const root = { stateDir: app.config.stateDir, sessionId: run.sessionId, workspace: session.workspace };
  const toolCtx = makeToolContext(c);

  let stored = listMessages(app.db, run.sessionId);
  let compression = getCompression(app.db, run.sessionId, stored);
  for (let step = 1;; step++) {
    if (run.finished) return;
    let history = stored.filter((m) => m.idx >= (compression?.uptoIdx ?? 0));
    let messages = await toModelMessages(history, root);
    let system = compression ? `${basePrompt}\n\n${summarySection(compression.summary)}` : basePrompt;
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
    meter.beginStep();
    let finished = false;
    for await (
      const part of streamModelStepWithRetry({
        endpoint,
        model,
        system,
        messages,
        tools: specs,
        signal: run.signal,
        idleTimeoutMs: opts.idleTimeoutMs,
        configPath: app.config.configPath,
        fetch: opts.fetch,
      }, opts.retry, retryWarning(run))
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
        case "finish":
          finished = true;
          meter.endStep(model, part.usage.reported ? part.usage : {
            inputTokens: Math.ceil((system.length + messagesChars(messages) + toolsChars) / 4),
            outputTokens: estimateTokens(draft.content + draft.reasoning),
            cachedTokens: 0,
          }, opts.pricing);
          break;
      }
    }
    if (run.finished) return;
    if (!finished) meter.endStep(model, { inputTokens: 0, outputTokens: 0, cachedTokens: 0 }, opts.pricing);

    for (const call of calls) call.id = uniqueToolCallId(app.db, run.sessionId, call.id);
    if (calls.length) {
      draft.setToolCalls(calls.map((tc): MessageToolCall => ({
        id: tc.id,
        type: "function",
        function: { name: tc.name, arguments: JSON.stringify(tc.args) },
      })));
    }
    draft.persist();
    if (calls.length === 0) {
      if (draft.isEmpty) {
        run.emit({ event: "warning", data: { type: "empty_response", message: `${model} returned an empty answer.` } });
      }
      return;
    }

    for (const call of calls) {
      if (run.finished) return;
      await runOneTool(c, tools, call, toolCtx);
    }
    if (run.finished) return;
    stored = listMessages(app.db, run.sessionId);
    if (step >= opts.maxSteps) {
      run.emit({
        event: "warning",
        data: {
          type: "step_limit",
          message: `Stopped after ${opts.maxSteps} model steps in one turn; send a message to let the agent continue.`,
        },
      });
      return;
    }
  }
}

async function runOneTool(c: LoopCtx, tools: ToolDefinition[], call: ModelToolCall, ctx: ToolContext): Promise<void> {
  const { run, plan } = c;
  const { db, clock } = plan.app;
  insertToolCall(db, clock, run.sessionId, run.turnId, call);
  c.meter.tools++;
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
  setToolCallStatus(db, run.sessionId, call.id, "running");
  run.activeToolCallId = call.id;
  const started = performance.now();
  let result;
  try {
    const raw = call.args._raw_arguments;
    result = await runToolCall(tools, call.name, typeof raw === "string" ? raw : call.args, ctx);
  } catch (err) {
    if (run.finished) return;
    result = { output: `Error: ${call.name} failed: ${(err as Error)?.message ?? String(err)}`, isError: true };
  } finally {
    run.activeToolCallId = null;
  }
  if (run.finished) return;
  const duration = (performance.now() - started) / 1000;
  const data = completeEventData(call, result, duration);
  const output = clipResult(result.output);
  setToolCallStatus(db, run.sessionId, call.id, data.status!, { result: output, duration: data.duration });
  appendMessages(db, clock, run.sessionId, [{
    role: "tool",
    tool_call_id: call.id,
    name: call.name,
    content: output,
    turn_id: run.turnId,
  }]);
  run.emit({ event: "tool_complete", data });
}

function makeToolContext(c: LoopCtx): ToolContext {
  const { run, plan, session } = c;
  const { app, opts } = plan;
  return {
    sessionId: run.sessionId,
    streamId: run.streamId,
    workspace: session.workspace,
    signal: run.signal,
    emit: (e) => run.emit(e),
    async requestApproval(req) {
      const id = run.activeToolCallId;
      if (id) setToolCallStatus(app.db, run.sessionId, id, "awaiting_approval");
      try {
        return await opts.hooks.requestApproval(app, run, req);
      } finally {
        if (id && !run.finished) setToolCallStatus(app.db, run.sessionId, id, "running");
      }
    },
    askClarify: (question, choices) => opts.hooks.askClarify(app, run, question, choices),
    allowNetwork: opts.hooks.allowNetwork(app, session),
  };
}
