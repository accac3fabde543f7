// What one turn of the agent works with (the run, its plan, session, endpoint, model and
// meter), the token/timing meter behind `metering` events and `usage` rows, and the warning a
// retried provider call leaves in the stream. Shared by the agent loop and the summarizer.
// Counts a provider did not report are estimated (characters ÷ 4) and flagged `estimated` all
// the way to the `usage` row; tokens/s is reported output over the time that output streamed
// (first part to last, per model step), so tool time, summaries and estimates never enter it.
// Delegated sub-tasks (child_run.ts) roll up: each token is stored once in the `usage` table,
// under the session that spent it (the child's own row; the parent's row holds only its own
// steps, so Insights never double counts), while the parent turn's `metering`/`done` usage and
// the parent session's running totals include the children (what the user's turn cost).
import type { RunTrace } from "../telemetry/run_tracer.ts";
import type { EngineHost } from "./engine_host.ts";
import type { Usage } from "../shared/chat_events.ts";
import { addUsage, type SessionRow } from "../sessions/sessions.ts";
import { sql } from "../storage/db.ts";
import type { ProviderEndpoint } from "../providers/provider_config.ts";
import type { ProviderFailure } from "../providers/provider_errors.ts";
import { estimateCost } from "../providers/pricing.ts";
import type { EngineOptions } from "./engine_options.ts";
import type { Run } from "./run.ts";

export type RunMode = "chat" | "compress";

export interface RunPlan {
  app: EngineHost;
  opts: EngineOptions;
  mode: RunMode;
  /** A title set by this turn, announced first. */
  title?: string;
  /** `/compress <focus>`: the topic a manual summary should keep in most detail. */
  focus?: string;
  /** This run is a delegated sub-task (child_run.ts): it may not delegate again. */
  delegated?: boolean;
}

export interface Turn {
  run: Run;
  plan: RunPlan;
  session: SessionRow;
  endpoint: ProviderEndpoint;
  model: string;
  meter: Meter;
  /** The run's trace (lib/telemetry): spans per model step and tool call; a no-op by default. */
  trace: RunTrace;
}

/** One model step's token counts: the provider's (`reported`) or estimated from characters. */
export interface StepCounts {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reported: boolean;
}

/**
 * The shortest streaming span a rate is computed from: over less, the figure says how the
 * network batched the chunks (a whole answer in one read reads as thousands per second), not
 * how fast the model writes.
 */
export const MIN_TIMED_MS = 100;

/** Token and timing totals of a run across its model steps. */
export class Meter {
  input = 0;
  output = 0;
  cached = 0;
  cost: number | null = 0;
  steps = 0;
  tools = 0;
  lastInput = 0;
  ttftMs: number | null = null;
  /** Some step's counts were estimated: the provider reported no usage for it. */
  estimated = false;
  /** Usage of delegated child runs, already stored against their own sessions. */
  readonly children: Required<Usage> = {
    input_tokens: 0,
    output_tokens: 0,
    cached_tokens: 0,
    estimated_cost: 0,
    estimated: false,
  };
  /** Reported output tokens of the steps whose streaming was timed, and that time (ms). */
  private timedOutput = 0;
  private timedMs = 0;
  private stepStart = 0;
  private firstAt: number | null = null;
  private lastAt = 0;
  private parts = 0;

  /** `now` in milliseconds: the monotonic clock, or a test's. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  beginStep(): void {
    this.stepStart = this.now();
    this.firstAt = null;
    this.parts = 0;
  }
  /** A part of the answer arrived (text, reasoning or a tool call). */
  sawOutput(): void {
    const now = this.now();
    if (this.firstAt === null) {
      this.firstAt = now;
      if (this.ttftMs === null) this.ttftMs = Math.round(now - this.stepStart);
    }
    this.lastAt = now;
    this.parts++;
  }
  endStep(model: string, usage: StepCounts, pricing: EngineOptions["pricing"]): void {
    this.steps++;
    // The last request's prompt size: how full the context window is (the context ring).
    this.lastInput = usage.inputTokens;
    this.input += usage.inputTokens;
    this.output += usage.outputTokens;
    this.cached += usage.cachedTokens;
    if (!usage.reported) this.estimated = true;
    // Only output whose arrival was watched counts toward the rate: a step that is only a tool
    // call arrives as one part once its arguments streamed (its time unseen), and a summary
    // streams unseen; their tokens over someone else's span made 3,000 tokens/s of 50.
    const span = this.firstAt === null ? 0 : this.lastAt - this.firstAt;
    if (usage.reported && usage.outputTokens > 0 && this.parts > 1 && span >= MIN_TIMED_MS) {
      this.timedOutput += usage.outputTokens;
      this.timedMs += span;
    }
    this.firstAt = null;
    this.parts = 0;
    const c = estimateCost(model, usage, pricing);
    this.cost = c === null || this.cost === null ? null : this.cost + c;
  }
  /** Add a finished child run's usage to this turn's totals. */
  addChild(u: Usage): void {
    const c = this.children;
    c.input_tokens += u.input_tokens;
    c.output_tokens += u.output_tokens;
    c.cached_tokens += u.cached_tokens ?? 0;
    c.estimated_cost = u.estimated_cost == null || c.estimated_cost === null
      ? null
      : c.estimated_cost + u.estimated_cost;
    if (u.estimated) c.estimated = true;
  }
  /** This run's own steps only (the `usage` row). */
  ownUsage(): Usage {
    return {
      input_tokens: this.input,
      output_tokens: this.output,
      cached_tokens: this.cached,
      estimated_cost: this.steps ? this.cost : null,
      estimated: this.estimated,
    };
  }
  /** The turn's total: its own steps plus its delegated children. */
  usage(): Usage {
    const own = this.ownUsage();
    const c = this.children;
    if (!c.input_tokens && !c.output_tokens && !c.cached_tokens) return own;
    return {
      input_tokens: own.input_tokens + c.input_tokens,
      output_tokens: own.output_tokens + c.output_tokens,
      cached_tokens: (own.cached_tokens ?? 0) + c.cached_tokens,
      estimated_cost: own.estimated_cost == null || c.estimated_cost === null
        ? null
        : own.estimated_cost + c.estimated_cost,
      estimated: own.estimated || c.estimated,
    };
  }
  /** Reported output tokens per second of streaming; null when no step could be timed. */
  tokensPerSecond(): number | null {
    if (this.timedOutput <= 0 || this.timedMs <= 0) return null;
    return Math.round((this.timedOutput / (this.timedMs / 1000)) * 10) / 10;
  }
}

/** Emit `metering`, write the turn's `usage` row and add it to the session's totals. */
export async function recordUsage(
  run: Run,
  plan: RunPlan,
  meter: Meter,
  model: string,
  provider: string | null,
): Promise<void> {
  if (meter.steps === 0) return;
  const usage = meter.usage();
  const own = meter.ownUsage();
  const tokensPerS = meter.tokensPerSecond();
  run.emit({
    event: "metering",
    data: { ...usage, ttft_ms: meter.ttftMs, tokens_per_s: tokensPerS },
  });
  const { db, clock } = plan.app;
  await db.run(
    sql`INSERT INTO usage (session_id, stream_id, model, model_provider, input_tokens,
          output_tokens, cached_tokens, cost, ttft_ms, tokens_per_s, tool_count, created_at,
          estimated)
        VALUES (${run.sessionId}, ${run.streamId}, ${model}, ${provider}, ${own.input_tokens},
          ${own.output_tokens}, ${own.cached_tokens ?? 0}, ${own.estimated_cost ?? null},
          ${meter.ttftMs}, ${tokensPerS}, ${meter.tools}, ${clock()}, ${own.estimated ? 1 : 0})`,
  );
  await addUsage(db, run.sessionId, usage);
}

/** The `warning` a retried provider call leaves in the stream. */
export function retryWarning(run: Run) {
  return (failure: ProviderFailure, attempt: number, delayMs: number) =>
    run.emit({
      event: "warning",
      data: {
        type: "retrying",
        message: `${failure.message}; retrying in ${
          Math.max(1, Math.round(delayMs / 1000))
        } s (attempt ${attempt + 1})`,
      },
    });
}
