// The engine's tracing contract: a run opens a trace, each model step and each tool call is a
// span inside it. The engine calls these hooks and never imports a tracing SDK, so a console
// without telemetry loads none (lib/telemetry/otel.ts is the real implementation).
// Invariant: every hook is safe to call in any order and never throws into the engine.

export interface StepEnd {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  finishReason: string | null;
  error?: string;
}

export interface StepSpan {
  end(result: StepEnd): void;
}

export interface ToolSpan {
  end(result: { isError: boolean; error?: string }): void;
}

export interface RunTrace {
  step(n: number): StepSpan;
  tool(name: string, callId: string): ToolSpan;
  end(status: "done" | "error" | "cancelled", error?: string): void;
}

export interface RunTraceInit {
  sessionId: string;
  streamId: string;
  turnId: string;
  model: string;
  provider: string;
  /** The endpoint's base URL: server.address in the spans. */
  baseUrl?: string;
}

/** Where runs report; one per app. */
export interface Telemetry {
  startRun(init: RunTraceInit): RunTrace;
  /** Export what is buffered (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const noopSpan = { end() {} };

/** A trace that records nothing. */
export const NO_TRACE: RunTrace = {
  step: () => noopSpan,
  tool: () => noopSpan,
  end() {},
};
