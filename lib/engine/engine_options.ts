// The engine's knobs, read once from config.yaml with safe defaults, and the hooks through which
// it reaches the tools subsystem (tool registry, approvals, clarify). Tests override any of
// them per app; nothing here is process-global.
//
// config.yaml keys (all optional):
//   provider_timeout_seconds: 120      # silence before a turn fails with no_response
//   provider_retry: {attempts: 3, base_delay_ms: 1000, max_delay_ms: 60000}
//   compression: {threshold: 0.8}      # share of the context window before compressing
//   context_windows: {my-model: 65536} # per-model context window overrides
//   pricing: {my-model: {input: 1.0, output: 2.0, cached: 0.1}}  # USD per 1M tokens
//   agent: {max_steps: 60}             # model steps per turn
//   agent: {delegate_max_steps: 20}    # model steps of one delegated sub-task (child run)
import type { Telemetry } from "../telemetry/run_tracer.ts";
import type { AppConfig } from "../settings/config.ts";
import { contextWindowOverrides } from "../models/known_models.ts";
import { type ModelPrice, pricingOverrides } from "../providers/pricing.ts";
import {
  DEFAULT_RETRY,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type RetryPolicy,
} from "../providers/model_stream.ts";
import { DEFAULT_COMPRESSION_THRESHOLD } from "./compression.ts";
import { TOOL_HOOKS } from "./tool_hooks.ts";
import type { EngineHooks } from "./engine_hooks.ts";

export { type EngineHooks, NO_TOOL_HOOKS } from "./engine_hooks.ts";

export interface EngineOptions {
  idleTimeoutMs: number;
  retry: RetryPolicy;
  compressionThreshold: number;
  contextWindows: Record<string, number>;
  pricing: Record<string, ModelPrice>;
  maxSteps: number;
  /** Step cap of a `delegate` child run (`agent.delegate_max_steps`). */
  delegateMaxSteps: number;
  /** `reasoning_effort` from config (`agent.` or `model.`); undefined = the provider's default. */
  reasoning?: ReasoningEffort;
  /** How often a streaming assistant message is saved to the transcript. */
  persistIntervalMs: number;
  /** SSE `: heartbeat` interval. */
  heartbeatMs: number;
  /** Journals of runs that ended longer ago than this are pruned at start-up. */
  journalRetentionDays: number;
  /** Test seam: the fetch the provider clients use. */
  fetch?: typeof fetch;
  /** Where runs report their traces (OpenTelemetry when configured; main.ts wires it). */
  telemetry?: Telemetry;
  /**
   * Called (not awaited) when a run's agent loop ends: standing goals judge the turn here
   * (main.ts wires lib/goals). Errors are the callee's to log.
   */
  onRunEnd?: (run: { sessionId: string; streamId: string; status: string }) => void;
  /** Let the model title a chat after its first answer (config `title_generation`, default on). */
  autoTitle: boolean;
  hooks: EngineHooks;
}

function num(v: unknown, fallback: number, min = 0): number {
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n >= min ? n : fallback;
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : {};
}

/** A known reasoning level, or undefined (unset, "provider-default" or unknown: the default). */
export function reasoningEffort(v: unknown): ReasoningEffort | undefined {
  const s = typeof v === "string" ? v.trim().toLowerCase() : "";
  return (REASONING_EFFORTS as readonly string[]).includes(s) ? s as ReasoningEffort : undefined;
}

/** Options from config.yaml, then `overrides` (tests, main.ts hooks). */
export function engineOptionsFromConfig(
  config: AppConfig,
  overrides: Partial<EngineOptions> = {},
): EngineOptions {
  const f = config.file;
  const retry = obj(f.provider_retry);
  const threshold = num(obj(f.compression).threshold, DEFAULT_COMPRESSION_THRESHOLD);
  return {
    idleTimeoutMs: num(f.provider_timeout_seconds, 120, 0.001) * 1000,
    retry: {
      attempts: Math.max(1, Math.floor(num(retry.attempts, DEFAULT_RETRY.attempts, 1))),
      baseDelayMs: num(retry.base_delay_ms, DEFAULT_RETRY.baseDelayMs),
      maxDelayMs: num(retry.max_delay_ms, DEFAULT_RETRY.maxDelayMs),
    },
    compressionThreshold: threshold > 0 && threshold <= 1
      ? threshold
      : DEFAULT_COMPRESSION_THRESHOLD,
    contextWindows: contextWindowOverrides(f),
    pricing: pricingOverrides(f),
    maxSteps: Math.max(1, Math.floor(num(obj(f.agent).max_steps, 60, 1))),
    delegateMaxSteps: Math.max(1, Math.floor(num(obj(f.agent).delegate_max_steps, 20, 1))),
    reasoning: reasoningEffort(obj(f.agent).reasoning_effort ?? obj(f.model).reasoning_effort),
    autoTitle: f.title_generation !== false,
    persistIntervalMs: 250,
    heartbeatMs: 5000,
    journalRetentionDays: 14,
    hooks: TOOL_HOOKS,
    ...overrides,
  };
}
