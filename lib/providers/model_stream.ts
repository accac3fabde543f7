// One model step over the wire. The AI SDK's provider packages speak the protocols (the
// endpoint's protocol picks chat-completions for every OpenAI-compatible server, Messages for
// Anthropic); the SDK's own prompt conversion turns ModelMessages into the provider prompt.
// The loop is ours: the engine calls the model's `doStream` directly (streamText's stream
// pipeline costs more than the whole relay budget) and runs tools itself.
// Invariants: every failure leaves here as a ProviderFailure; silence longer than
// `idleTimeoutMs` is `no_response`; rate limits are retried (honouring Retry-After) only
// while nothing has been streamed in that attempt.
import type { ModelMessage } from "ai";
import type { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ProviderEndpoint } from "./provider_config.ts";
import { describeUrl, guardedFetch, guardedFetchFunction } from "../security/url_guard.ts";

/** Providers whose servers run on the user's own machine by design (default base_url local). */
const LOCAL_BY_DESIGN = new Set(["ollama", "lmstudio", "custom"]);
import {
  type FailureContext,
  noResponseFailure,
  ProviderFailure,
  toProviderFailure,
  truncatedFailure,
} from "./provider_errors.ts";

/** A tool as the model sees it: name, description, JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface StepUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  /** False when the provider reported no usage at all. */
  reported: boolean;
}

export type StepPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | {
    type: "tool-call";
    id: string;
    name: string;
    /** Parsed arguments, or the raw text when the model sent invalid JSON. */
    input: unknown;
  }
  | {
    type: "finish";
    usage: StepUsage;
    finishReason: string;
    /** The provider's own finish reason; undefined when the stream ended without one. */
    rawFinishReason: string | undefined;
  };

/** The reasoning levels of the AI SDK's call options. */
export const REASONING_EFFORTS = [
  "none",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
] as const;
export type ReasoningEffort = typeof REASONING_EFFORTS[number];

export interface StepRequest {
  endpoint: ProviderEndpoint;
  model: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  /** Give up with `no_response` after this much silence. */
  idleTimeoutMs: number;
  configPath: string;
  maxOutputTokens?: number;
  /**
   * How hard the model should think (config `reasoning_effort`). The provider packages map it:
   * Anthropic thinking (adaptive or a token budget), OpenAI reasoning effort. Unset: their default.
   */
  reasoning?: ReasoningEffort;
  /** Test seam: the fetch used by the SDK client. */
  fetch?: typeof fetch;
}

/** The provider-level model (LanguageModelV4 of the SDK's provider spec). */
type ProviderModel = ReturnType<ReturnType<typeof createOpenAICompatible>["chatModel"]>;
type StreamPartOf<M extends ProviderModel> = Awaited<ReturnType<M["doStream"]>>["stream"] extends
  ReadableStream<infer P> ? P : never;

/**
 * The AI SDK, imported on the first model call: with its provider packages it is ~20 MB of an
 * idle server's memory, and a console that never chats needs none of it.
 */
let sdk: ReturnType<typeof importSdk> | undefined;
function importSdk() {
  return Promise.all([
    import("ai/internal"),
    import("@ai-sdk/openai"),
    import("@ai-sdk/anthropic"),
    import("@ai-sdk/openai-compatible"),
  ]).then(([internal, openai, anthropic, compatible]) => ({
    convertToLanguageModelPrompt: internal.convertToLanguageModelPrompt,
    standardizePrompt: internal.standardizePrompt,
    createOpenAI: openai.createOpenAI,
    createAnthropic: anthropic.createAnthropic,
    createOpenAICompatible: compatible.createOpenAICompatible,
  }));
}
const loadSdk = () =>
  sdk ??= importSdk().catch((err) => {
    sdk = undefined; // a failed import (e.g. a missing cache entry) is retried next call
    throw err;
  });

const MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;

/**
 * The SDK downloads a URL part the model cannot take as a URL. Ours goes through the SSRF
 * guard with no private addresses (an image URL comes from a transcript, never from the
 * user's configuration) and is capped; URLs the model takes itself are left to the provider.
 */
function guardedDownload(
  requests: Array<{ url: URL; isUrlSupportedByModel: boolean; abortSignal?: AbortSignal }>,
): Promise<Array<{ data: Uint8Array; mediaType: string | undefined } | null>> {
  return Promise.all(requests.map(async ({ url, isUrlSupportedByModel, abortSignal }) => {
    if (isUrlSupportedByModel) return null;
    const res = await guardedFetch(url, { signal: abortSignal }, { allowPrivate: false });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new Error(`Downloading ${describeUrl(url)} failed: HTTP ${res.status}`);
    }
    const bytes = await readBodyCapped(res, MAX_DOWNLOAD_BYTES, describeUrl(url));
    return { data: bytes, mediaType: res.headers.get("content-type")?.split(";")[0] };
  }));
}

async function readBodyCapped(res: Response, max: number, what: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body ?? new ReadableStream<Uint8Array>()) {
    total += chunk.byteLength;
    if (total > max) throw new Error(`Downloading ${what} failed: over ${max} bytes`);
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) (out.set(c, at), at += c.byteLength);
  return out;
}

/**
 * The `fetch` and headers every SDK client of `endpoint` gets. Every provider request goes
 * through the SSRF guard at request time (a base_url that was written around the settings
 * checks, or a name that now resolves elsewhere, is refused before the API key leaves):
 * loopback and private addresses only for endpoints the user configured, metadata and
 * unspecified addresses never. `fetchImpl` (a test seam) only replaces the transport under the
 * guard; it stands in for DNS too, so names are not resolved then (IP literals and metadata
 * names are still judged). Also used by lib/voice for transcription and speech.
 */
export function providerClientOptions(
  endpoint: ProviderEndpoint,
  fetchImpl?: typeof fetch,
): { fetch: typeof fetch; headers?: Record<string, string> } {
  return {
    fetch: guardedFetchFunction({
      allowPrivate: endpoint.userConfigured || LOCAL_BY_DESIGN.has(endpoint.id),
      fetch: fetchImpl,
      ...(fetchImpl ? { resolveNames: false } : {}),
    }),
    // Headers the user configured for this endpoint (config.yaml `headers:`).
    ...(endpoint.headers ? { headers: endpoint.headers } : {}),
  };
}

/** Build the SDK model for an endpoint. Non-Anthropic endpoints use chat-completions. */
export async function createLanguageModel(
  endpoint: ProviderEndpoint,
  model: string,
  fetchImpl?: typeof fetch,
): Promise<ProviderModel> {
  const { createAnthropic, createOpenAI, createOpenAICompatible } = await loadSdk();
  const common = providerClientOptions(endpoint, fetchImpl);
  if (endpoint.protocol === "anthropic") {
    return createAnthropic({
      apiKey: endpoint.apiKey ?? "",
      ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
      ...common,
    }).messages(model);
  }
  // OpenAI's own API through its client; an `openai` provider pointed at another base_url is
  // some OpenAI-compatible server, whose extras (reasoning_content) only the compatible client reads.
  if (
    endpoint.protocol === "openai" &&
    (!endpoint.baseUrl || endpoint.baseUrl.includes("api.openai.com"))
  ) {
    return createOpenAI({
      apiKey: endpoint.apiKey ?? "",
      ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
      ...common,
    }).chat(model);
  }
  return createOpenAICompatible({
    name: endpoint.id.replace(/[^a-z0-9]+/gi, "_"),
    baseURL: endpoint.baseUrl ?? "",
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    includeUsage: true,
    // A caller that asks for an object (the goal evaluator) sends its schema as
    // `response_format: json_schema`; without this the SDK sends a bare `json_object`.
    supportsStructuredOutputs: true,
    ...(endpoint.id === "openrouter"
      ? {
        headers: {
          "X-Title": "Hermes Console",
          "HTTP-Referer": "https://github.com/hermes-console",
        },
      }
      : {}),
    ...common,
  }).chatModel(model);
}

function parseInput(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // the engine turns invalid JSON into a tool error the model can read
  }
}

/** Stream one model step. Throws ProviderFailure; stops quietly when `signal` aborts. */
export async function* streamModelStep(req: StepRequest): AsyncGenerator<StepPart> {
  const ctx: FailureContext = {
    endpoint: req.endpoint,
    model: req.model,
    configPath: req.configPath,
  };
  if (req.signal.aborted) return;
  const local = new AbortController();
  let reader: ReadableStreamDefaultReader<StreamPartOf<ProviderModel>> | undefined;
  // Aborting the request's signal does not always settle a read already waiting on the response
  // body (Deno's fetch can leave it pending, seen under load), so stopping also cancels the
  // reader: a pending read() then resolves as done at once, whatever the transport does.
  const stop = (reason: unknown) => {
    local.abort(reason);
    reader?.cancel(reason).catch(() => {});
  };
  const onOuterAbort = () => stop(req.signal.reason);
  req.signal.addEventListener("abort", onOuterAbort, { once: true });
  // The SDK's first import is our own start-up, not the provider's silence: load it before the
  // watchdog runs (a failure here is retried below, where failures are classified).
  try {
    await loadSdk();
  } catch { /* see below */ }
  // Silence watchdog: parts only stamp the time (re-arming a timer per token is costly).
  let lastActivity = performance.now();
  let idleFired = false;
  const watchdog = setInterval(() => {
    if (performance.now() - lastActivity >= req.idleTimeoutMs) {
      idleFired = true;
      clearInterval(watchdog);
      stop(new Error("idle timeout"));
    }
  }, Math.max(5, Math.min(1000, req.idleTimeoutMs / 4)));
  let streamError: unknown;
  try {
    const model = await createLanguageModel(req.endpoint, req.model, req.fetch);
    const { convertToLanguageModelPrompt, standardizePrompt } = await loadSdk();
    const prompt = await convertToLanguageModelPrompt({
      prompt: await standardizePrompt({ system: req.system, messages: req.messages }),
      supportedUrls: await model.supportedUrls,
      download: guardedDownload,
      abortSignal: local.signal,
      provider: model.provider,
    });
    const { stream } = await model.doStream({
      prompt,
      ...(req.tools.length
        ? {
          tools: req.tools.map((t) => ({
            type: "function" as const,
            name: t.name,
            description: t.description,
            // deno-lint-ignore no-explicit-any
            inputSchema: t.inputSchema as any,
          })),
          toolChoice: { type: "auto" as const },
        }
        : {}),
      ...(req.maxOutputTokens ? { maxOutputTokens: req.maxOutputTokens } : {}),
      ...(req.reasoning ? { reasoning: req.reasoning } : {}),
      abortSignal: local.signal,
    });
    reader = stream.getReader();
    while (true) {
      const { done, value: part } = await reader.read();
      if (done) break;
      lastActivity = performance.now();
      switch (part.type) {
        case "text-delta":
          if (part.delta) yield { type: "text", text: part.delta };
          break;
        case "reasoning-delta":
          if (part.delta) yield { type: "reasoning", text: part.delta };
          break;
        case "tool-call":
          yield {
            type: "tool-call",
            id: part.toolCallId,
            name: part.toolName,
            input: parseInput(part.input),
          };
          break;
        case "error":
          streamError ??= part.error;
          break;
        case "finish": {
          if (streamError) break;
          if (part.finishReason.unified === "interrupted") {
            streamError = truncatedFailure(ctx);
            break;
          }
          const u = part.usage;
          const input = u.inputTokens.total;
          const output = u.outputTokens.total;
          yield {
            type: "finish",
            finishReason: part.finishReason.unified,
            rawFinishReason: part.finishReason.raw,
            usage: {
              inputTokens: input ?? 0,
              outputTokens: output ?? 0,
              cachedTokens: u.inputTokens.cacheRead ?? 0,
              reported: input !== undefined || output !== undefined,
            },
          };
          break;
        }
      }
      if (streamError) break;
    }
  } catch (err) {
    streamError ??= err;
  } finally {
    clearInterval(watchdog);
    req.signal.removeEventListener("abort", onOuterAbort);
    if (!local.signal.aborted) local.abort();
    reader?.cancel().catch(() => {});
  }
  if (req.signal.aborted) return;
  if (idleFired) throw noResponseFailure(ctx, Math.round(req.idleTimeoutMs / 100) / 10);
  if (streamError) throw toProviderFailure(streamError, ctx);
}

export interface RetryPolicy {
  /** Total attempts for a retryable failure (default 3). */
  attempts: number;
  /** First backoff in ms (doubles each retry; default 1000). */
  baseDelayMs: number;
  /** A Retry-After longer than this gives up at once instead of waiting (default 60 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 1000, maxDelayMs: 60_000 };

/**
 * `streamModelStep` with retries for retryable failures (rate limits, 5xx) that happen
 * before anything was streamed. `onRetry` is told before each wait (to warn the user).
 */
export async function* streamModelStepWithRetry(
  req: StepRequest,
  policy: RetryPolicy = DEFAULT_RETRY,
  onRetry?: (failure: ProviderFailure, attempt: number, delayMs: number) => void,
): AsyncGenerator<StepPart> {
  for (let attempt = 1;; attempt++) {
    let streamed = false;
    try {
      for await (const part of streamModelStep(req)) {
        streamed = true;
        yield part;
      }
      return;
    } catch (err) {
      const failure = err instanceof ProviderFailure ? err : toProviderFailure(err, {
        endpoint: req.endpoint,
        model: req.model,
        configPath: req.configPath,
      });
      if (streamed || !failure.retryable || attempt >= policy.attempts) throw failure;
      const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
      const delay = failure.retryAfterMs !== undefined
        ? Math.max(failure.retryAfterMs, 0)
        : backoff;
      if (delay > policy.maxDelayMs) throw failure;
      onRetry?.(failure, attempt, delay);
      if (!(await abortableSleep(delay, req.signal))) return;
    }
  }
}

/** Sleep `ms`; resolves false early when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
