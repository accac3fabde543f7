// The few typed errors the server raises, and the one place they become HTTP statuses.
// Invariant: routes throw these instead of building 4xx responses by hand; a 500 never
// carries a stack trace to the client (it goes to the server log instead).
import type { AppErrorType } from "./shared/chat_events.ts";

/** Unknown id, unknown route, or a path that must not be revealed. → 404 */
export class NotFoundError extends Error {
  override name = "NotFoundError";
  constructor(message = "not found", options?: ErrorOptions) {
    super(message, options);
  }
}

/** Bad input: a missing or malformed field. → 400 */
export class ValidationError extends Error {
  override name = "ValidationError";
  /** A machine-readable reason a client branches on (the original's `code`, e.g. path_outside_workspace). */
  readonly code?: string;
  constructor(
    message: string,
    readonly field?: string,
    options?: ErrorOptions & { code?: string },
  ) {
    super(message, options);
    this.code = options?.code;
  }
}

/** The request clashes with current state (an active stream, a stale answer). → 409 */
export class ConflictError extends Error {
  override name = "ConflictError";
  constructor(
    message: string,
    readonly extra: Record<string, unknown> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Authentication required or failed. → 401 */
export class AuthError extends Error {
  override name = "AuthError";
  constructor(message = "Authentication required", options?: ErrorOptions) {
    super(message, options);
  }
}

/** Authenticated but not allowed (CSRF, cross-site, read-only). → 403 */
export class ForbiddenError extends Error {
  override name = "ForbiddenError";
  constructor(message = "Forbidden", options?: ErrorOptions) {
    super(message, options);
  }
}

/** Body or file over a size cap. → 413 */
export class PayloadTooLargeError extends Error {
  override name = "PayloadTooLargeError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Too many requests from one client. → 429 */
export class RateLimitError extends Error {
  override name = "RateLimitError";
  constructor(
    message = "Too many requests",
    readonly retryAfterSeconds = 60,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The server cannot take the work right now. → 503 */
export class BusyError extends Error {
  override name = "BusyError";
  constructor(message = "Server busy", options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * The database did not answer this request in time (a statement over its timeout, a lock wait,
 * a connection that could not be had). → 503 with Retry-After: the request failed, the server
 * did not, and the next one may succeed.
 */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
  constructor(message = "The database did not answer in time", options?: ErrorOptions) {
    super(message, options);
  }
}

/** A body whose type the route does not take (e.g. an upload that is not audio). → 415 */
export class UnsupportedMediaTypeError extends Error {
  override name = "UnsupportedMediaTypeError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * A service the request was passed on to failed it: it refused, answered garbage (502) or did
 * not answer in time (504). The message names the service and what went wrong; `hint` says
 * what the person can change.
 */
export class UpstreamError extends Error {
  override name = "UpstreamError";
  constructor(
    message: string,
    readonly status: 502 | 504 = 502,
    readonly hint?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The kinds of provider failure the UI explains to a person (API.md `apperror.type`). */
export type ProviderErrorKind = AppErrorType;

/** A vendor failure, normalized at the provider adapter. Never reaches HTTP as a status. */
export class ProviderError extends Error {
  override name = "ProviderError";
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly retryable = false,
    readonly hint?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The single mapping from thrown errors to HTTP status + JSON body. */
export function errorToHttp(
  err: unknown,
): { status: number; body: Record<string, unknown>; headers?: Record<string, string> } {
  if (err instanceof NotFoundError) return { status: 404, body: { error: err.message } };
  if (err instanceof ValidationError) {
    return {
      status: 400,
      body: {
        error: err.message,
        ...(err.field ? { field: err.field } : {}),
        ...(err.code ? { code: err.code } : {}),
      },
    };
  }
  if (err instanceof ConflictError) {
    return { status: 409, body: { error: err.message, ...err.extra } };
  }
  if (err instanceof AuthError) return { status: 401, body: { error: err.message } };
  if (err instanceof ForbiddenError) return { status: 403, body: { error: err.message } };
  if (err instanceof PayloadTooLargeError) return { status: 413, body: { error: err.message } };
  if (err instanceof RateLimitError) {
    return {
      status: 429,
      body: { error: err.message },
      headers: { "Retry-After": String(err.retryAfterSeconds) },
    };
  }
  if (err instanceof BusyError) return { status: 503, body: { error: err.message } };
  if (err instanceof DatabaseUnavailableError) {
    return { status: 503, body: { error: err.message }, headers: { "Retry-After": "2" } };
  }
  if (err instanceof UnsupportedMediaTypeError) {
    return { status: 415, body: { error: err.message } };
  }
  if (err instanceof UpstreamError) {
    return {
      status: err.status,
      body: { error: err.message, ...(err.hint ? { hint: err.hint } : {}) },
    };
  }
  return { status: 500, body: { error: "Internal server error" } };
}
