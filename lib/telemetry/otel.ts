// OpenTelemetry for runs, through the official SDK: one trace per run ("invoke_agent"), a span per
// model step ("chat <model>") and per tool call ("execute_tool <name>"), with attributes of the
// OpenTelemetry GenAI semantic conventions (gen_ai.operation.name, gen_ai.provider.name,
// gen_ai.request.model, gen_ai.usage.*, gen_ai.response.finish_reasons, gen_ai.tool.*), exported
// as OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT. Invariants: the SDK is loaded only when telemetry
// is configured; spans carry ids and counts, never prompts, answers, arguments or keys.
import type { Logger } from "../log.ts";
import type { RunTrace, RunTraceInit, StepEnd, Telemetry } from "./run_tracer.ts";

/** The traces URL for an OTLP base endpoint (`http://collector:4318` → `…/v1/traces`). */
export function tracesUrl(endpoint: string, explicit?: string): string {
  if (explicit) return explicit;
  return endpoint.replace(/\/+$/, "") + "/v1/traces";
}

/**
 * Telemetry exporting to `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * wins when set). The SDK modules load on the first run, not at start.
 */
export function createOtelTelemetry(
  env: Readonly<Record<string, string>>,
  log: Logger,
  version = "dev",
): Telemetry | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const explicit = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!endpoint && !explicit) return null;
  const url = tracesUrl(endpoint ?? "", explicit);
  const serviceName = env.OTEL_SERVICE_NAME || "hermes-console";
  type Sdk = Awaited<ReturnType<typeof loadSdk>>;
  let sdk: Promise<Sdk> | null = null;
  const load = () => (sdk ??= loadSdk(url, serviceName, version));

  return {
    startRun(init: RunTraceInit): RunTrace {
      // Spans are recorded against the SDK once loaded; until then hooks queue on the promise.
      const ready = load().catch((err) => {
        log.warn("OpenTelemetry could not start; runs are not traced", { error: String(err) });
        return null;
      });
      return tracedRun(ready, init);
    },
    async flush() {
      if (sdk) await (await sdk).provider.forceFlush();
    },
    async close() {
      if (sdk) await (await sdk).provider.shutdown();
    },
  };
}

async function loadSdk(url: string, serviceName: string, version: string) {
  const [api, base, exporter, resources] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const provider = new base.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      "service.name": serviceName,
      "service.version": version,
    }),
    spanProcessors: [new base.BatchSpanProcessor(new exporter.OTLPTraceExporter({ url }))],
  });
  return { api, provider, tracer: provider.getTracer("hermes-console", version) };
}

type Loaded = Awaited<ReturnType<typeof loadSdk>> | null;
// deno-lint-ignore no-explicit-any
type AnySpan = any;

function tracedRun(ready: Promise<Loaded>, init: RunTraceInit): RunTrace {
  const common = {
    "gen_ai.provider.name": init.provider,
    "gen_ai.request.model": init.model,
    "gen_ai.conversation.id": init.sessionId,
    ...(init.baseUrl ? { "server.address": safeHost(init.baseUrl) } : {}),
  };
  // The root span starts now (its start time is the run's), children attach to it when ready.
  const root: Promise<{ sdk: NonNullable<Loaded>; span: AnySpan } | null> = ready.then((sdk) =>
    sdk
      ? {
        sdk,
        span: sdk.tracer.startSpan("invoke_agent hermes", {
          kind: sdk.api.SpanKind.INTERNAL,
          attributes: {
            ...common,
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "hermes",
            "hermes.stream_id": init.streamId,
            "hermes.turn_id": init.turnId,
          },
        }),
      }
      : null
  );
  const child = (name: string, attributes: Record<string, string | number>) => {
    const startTime = new Date();
    return root.then((r) => {
      if (!r) return null;
      const ctx = r.sdk.api.trace.setSpan(r.sdk.api.ROOT_CONTEXT, r.span);
      return r.sdk.tracer.startSpan(name, {
        kind: r.sdk.api.SpanKind.CLIENT,
        attributes,
        startTime,
      }, ctx);
    });
  };
  const finish = (span: Promise<AnySpan>, fn: (s: AnySpan, sdk: NonNullable<Loaded>) => void) => {
    const endTime = new Date();
    void Promise.all([span, root]).then(([s, r]) => {
      if (s && r) {
        fn(s, r.sdk);
        s.end(endTime);
      }
    }).catch(() => {});
  };
  return {
    step(n: number) {
      const span = child(`chat ${init.model}`, {
        ...common,
        "gen_ai.operation.name": "chat",
        "hermes.step": n,
      });
      return {
        end(result: StepEnd) {
          finish(span, (s, sdk) => {
            s.setAttributes({
              "gen_ai.usage.input_tokens": result.inputTokens,
              "gen_ai.usage.output_tokens": result.outputTokens,
              "gen_ai.usage.cache_read.input_tokens": result.cachedTokens,
              ...(result.finishReason
                ? { "gen_ai.response.finish_reasons": [result.finishReason] }
                : {}),
            });
            if (result.error) {
              s.setAttribute("error.type", result.error);
              s.setStatus({ code: sdk.api.SpanStatusCode.ERROR, message: result.error });
            }
          });
        },
      };
    },
    tool(name: string, callId: string) {
      const span = child(`execute_tool ${name}`, {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": name,
        "gen_ai.tool.call.id": callId,
        "gen_ai.tool.type": name.startsWith("mcp__") ? "extension" : "function",
      });
      return {
        end(result) {
          finish(span, (s, sdk) => {
            if (result.isError) {
              s.setAttribute("error.type", result.error ?? "tool_error");
              s.setStatus({ code: sdk.api.SpanStatusCode.ERROR });
            }
          });
        },
      };
    },
    end(status, error) {
      const endTime = new Date();
      void root.then((r) => {
        if (!r) return;
        r.span.setAttribute("hermes.run.status", status);
        if (status === "error") {
          r.span.setAttribute("error.type", error ?? "error");
          r.span.setStatus({ code: r.sdk.api.SpanStatusCode.ERROR, message: error });
        }
        r.span.end(endTime);
      }).catch(() => {});
    },
  };
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
