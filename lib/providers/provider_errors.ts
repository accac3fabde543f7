// Vendor failures normalized at the adapter into one ProviderError vocabulary (API.md
// `apperror.type`), each with a hint a person can act on. Invariants: an api key never appears
// in a message or `details`; only rate limits and transient server errors are retryable.
import type { APICallError } from "ai";
import { ProviderError, type ProviderErrorKind } from "../errors.ts";
import type { ProviderEndpoint } from "./provider_config.ts";

/** A ProviderError with what the retry loop and the `apperror` event need. */
export class ProviderFailure extends ProviderError {
  constructor(
    message: string,
    kind: ProviderErrorKind,
    retryable: boolean,
    hint: string | undefined,
    /** Milliseconds the provider asked us to wait (Retry-After), if it said. */
    readonly retryAfterMs?: number,
    /** Status and vendor message, for the details line of the error card. */
    readonly details?: string,
    options?: ErrorOptions,
  ) {
    super(message, kind, retryable, hint, options);
  }
}

/** What normalization needs to know to write a useful hint. */
export interface FailureContext {
  endpoint: Pick<ProviderEndpoint, "id" | "label" | "baseUrl" | "apiKey">;
  model: string;
  configPath: string;
}

const KEY_ENV: Record<string, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
};

function redact(text: string, key: string | undefined): string {
  let out = text;
  if (key && key.length >= 4) out = out.split(key).join("***");
  return out.replace(/\b(sk-[A-Za-z0-9_-]{3})[A-Za-z0-9_*-]{8,}/g, "$1***");
}

/** The vendor's own error message from a JSON error body, else the raw text (trimmed). */
function vendorMessage(body: string | undefined): string {
  if (!body) return "";
  try {
    const parsed = JSON.parse(body);
    const m = parsed?.error?.message ?? parsed?.message ?? parsed?.error;
    if (typeof m === "string") return m;
  } catch { /* not JSON */ }
  return body.slice(0, 300);
}

function parseRetryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const get = (n: string) => headers[n] ?? headers[n.toLowerCase()];
  const ms = Number(get("retry-after-ms"));
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = get("retry-after");
  if (raw === undefined) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Map any error thrown or streamed by the SDK into a ProviderFailure. */
export function toProviderFailure(err: unknown, ctx: FailureContext): ProviderFailure {
  if (err instanceof ProviderFailure) return err;
  const where = `${ctx.endpoint.label}${ctx.endpoint.baseUrl ? ` (${ctx.endpoint.baseUrl})` : ""}`;
  const keyHint = KEY_ENV[ctx.endpoint.id]
    ? `Check ${
      KEY_ENV[ctx.endpoint.id]
    } or the api_key for "${ctx.endpoint.id}" in ${ctx.configPath}.`
    : `Check the api_key for "${ctx.endpoint.id}" in ${ctx.configPath}.`;
  if (err instanceof ProviderError) {
    return new ProviderFailure(
      err.message,
      err.kind,
      err.retryable,
      err.hint,
      undefined,
      undefined,
      {
        cause: err,
      },
    );
  }
  if (isApiCallError(err)) {
    const status = err.statusCode ?? 0;
    const vendor = redact(vendorMessage(err.responseBody) || err.message, ctx.endpoint.apiKey);
    const details = `HTTP ${status || "?"}: ${vendor}`.slice(0, 500);
    const lower = `${err.responseBody ?? ""} ${err.message}`.toLowerCase();
    const fail = (kind: ProviderErrorKind, message: string, hint: string, retryable = false) =>
      new ProviderFailure(
        message,
        kind,
        retryable,
        hint,
        parseRetryAfter(err.responseHeaders),
        details,
        { cause: err },
      );
    if (status === 401 || status === 403) {
      return fail(
        "auth_mismatch",
        `${ctx.endpoint.label} rejected the credentials (HTTP ${status})`,
        `${keyHint} The key may be missing, expired or for another provider.`,
      );
    }
    if (
      status === 402 || lower.includes("insufficient_quota") || lower.includes("credit balance") ||
      lower.includes("quota exceeded")
    ) {
      return fail(
        "quota_exhausted",
        `${ctx.endpoint.label} says the account is out of quota or credits`,
        `Add credits or raise the spending limit for this account, or switch to another provider or model.`,
      );
    }
    if (status === 429) {
      return fail(
        "rate_limit",
        `${ctx.endpoint.label} is rate limiting requests (HTTP 429)`,
        `Wait a minute and retry, or pick another model. Hermes already retried with backoff.`,
        true,
      );
    }
    if (status === 404 || lower.includes("model_not_found") || lower.includes("does not exist")) {
      return fail(
        "model_not_found",
        `Model "${ctx.model}" was not found at ${where}`,
        `Pick another model in the model menu, or check the model id and base_url in ${ctx.configPath}.`,
      );
    }
    if (status === 529 || status >= 500) {
      return fail(
        "provider_error",
        `${ctx.endpoint.label} had a server error (HTTP ${status})`,
        `The provider is having trouble; retry in a moment.`,
        true,
      );
    }
    if (
      status === 400 && (lower.includes("context length") || lower.includes("context_length") ||
        lower.includes("too long") || lower.includes("maximum context"))
    ) {
      return fail(
        "provider_error",
        `The conversation is too long for "${ctx.model}"`,
        `Compress the conversation (Compress in the session menu) or start a new session.`,
      );
    }
    if (status >= 200 && status < 300) {
      return fail(
        "provider_error",
        `The connection to ${where} broke while the answer was streaming`,
        `Retry the turn; if it keeps happening, check the network or proxy between Hermes and the provider.`,
      );
    }
    if (!status) {
      return fail(
        "provider_error",
        `Cannot reach ${where}: ${vendor}`,
        `Check that the server is running and base_url is right in ${ctx.configPath}.`,
        false,
      );
    }
    return fail(
      "provider_error",
      `${ctx.endpoint.label} refused the request (HTTP ${status}): ${vendor}`.slice(0, 300),
      `Check the model settings; the details below say what the provider objected to.`,
    );
  }
  const e = err as { name?: string; message?: string; code?: string } | undefined;
  const name = e?.name ?? "";
  const message = redact(String(e?.message ?? err), ctx.endpoint.apiKey);
  if (/ended without a finish reason/i.test(message)) return truncatedFailure(ctx);
  if (
    name.includes("JSONParseError") || name.includes("TypeValidationError") ||
    name.includes("InvalidResponseData")
  ) {
    return new ProviderFailure(
      `${ctx.endpoint.label} sent a malformed stream`,
      "provider_error",
      false,
      `The endpoint at ${where} does not speak the expected protocol correctly; check base_url and that it is an OpenAI-compatible chat-completions server.`,
      undefined,
      message.slice(0, 500),
      { cause: err },
    );
  }
  if (
    name === "TypeError" || e?.code === "ECONNREFUSED" ||
    /connect|refused|network|dns|reset/i.test(message)
  ) {
    return new ProviderFailure(
      `Cannot reach ${where}`,
      "provider_error",
      false,
      `Check that the server is running and base_url is right in ${ctx.configPath}.`,
      undefined,
      message.slice(0, 500),
      { cause: err },
    );
  }
  return new ProviderFailure(
    `${ctx.endpoint.label} failed: ${message}`.slice(0, 300),
    "provider_error",
    false,
    `Retry the turn; if it keeps failing, check the provider settings in ${ctx.configPath}.`,
    undefined,
    message.slice(0, 500),
    { cause: err },
  );
}

/** The silence failure, raised by the adapter's idle timer. */
export function noResponseFailure(ctx: FailureContext, seconds: number): ProviderFailure {
  return new ProviderFailure(
    `${ctx.endpoint.label} sent nothing for ${seconds} s`,
    "no_response",
    false,
    `The model may be overloaded or still loading. Retry, or pick a smaller/faster model. ` +
      `(The silence limit is provider_timeout_seconds in ${ctx.configPath}.)`,
  );
}

/** The stream ended before the provider said the answer was complete (a cut connection). */
export function truncatedFailure(ctx: FailureContext): ProviderFailure {
  return new ProviderFailure(
    `The answer from ${ctx.endpoint.label} was cut off: the stream ended before it finished`,
    "provider_error",
    false,
    `The partial answer was kept. Retry the turn; if it keeps happening, check the network or ` +
      `proxy between Hermes and ${ctx.endpoint.baseUrl ?? ctx.endpoint.label}.`,
  );
}

/**
 * `APICallError.isInstance` without importing the SDK at start-up (model_stream.ts loads it on
 * the first model call): the SDK marks its errors with this global symbol across versions.
 */
const API_CALL_ERROR = Symbol.for("vercel.ai.error.AI_APICallError");
function isApiCallError(err: unknown): err is APICallError {
  return typeof err === "object" && err !== null &&
    (err as Record<symbol, unknown>)[API_CALL_ERROR] === true;
}
