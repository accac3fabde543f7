// Browser-safe: imports nothing from Deno or the database.
// How islands call the JSON API: same-origin fetch, JSON in and out, the page's proof token
// (<meta name="hermes-csrf-token">, rendered with auth on or off) on every call, and an
// Error carrying the server's `{"error": "..."}` sentence and status on any non-2xx answer.
import { t } from "../i18n/t.ts";

/** An API call that did not succeed; `message` is the server's sentence for the user. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(message: string, readonly status: number, readonly body: unknown) {
    super(message);
  }
}

/** The proof token the page carries (the server refuses writes without it), or undefined. */
export function csrfToken(doc: Document | undefined = globalThis.document): string | undefined {
  return doc?.querySelector<HTMLMetaElement>('meta[name="hermes-csrf-token"]')?.content ||
    undefined;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Requests sent and not yet answered; a credentials change waits until none is left. */
let unanswered = 0;
let onAllAnswered: Array<() => void> = [];
/** Set while the login cookie is being replaced: background reads wait on it. */
let credentialsChanging: Promise<void> | null = null;

/**
 * Run `change` (setting or removing the password) with the page's background reads held:
 * none is sent until it ends, and it starts only once every request already sent is answered.
 * A poll that crossed the change would reach the server with the old cookie after auth turned
 * on and come back 401 (a failed request in the console for nothing). `keepHeld` keeps them
 * held after a success, for a change whose page reloads to pick up its new cookie and token.
 */
export async function whileCredentialsChange<T>(
  change: () => Promise<T>,
  { keepHeld = false } = {},
): Promise<T> {
  let release!: () => void;
  credentialsChanging = new Promise<void>((resolve) => release = resolve);
  while (unanswered > 0) await new Promise<void>((resolve) => onAllAnswered.push(resolve));
  let ok = false;
  try {
    const result = await change();
    ok = true;
    return result;
  } finally {
    if (!ok || !keepHeld) {
      credentialsChanging = null;
      release();
    }
  }
}

/** Call the API: `body` is sent as JSON; the parsed JSON answer is returned. */
export function api<T = Record<string, unknown>>(
  method: Method,
  path: string,
  body?: unknown,
  init: { signal?: AbortSignal; background?: boolean } = {},
): Promise<T> {
  return apiRequest<T>(method, path, {
    body: body === undefined ? undefined : JSON.stringify(body),
    contentType: body === undefined ? undefined : "application/json",
    signal: init.signal,
    background: init.background,
  });
}

/**
 * One API request with any body (JSON text, FormData): the proof token on every method
 * (some GETs change state, e.g. cancel), the JSON answer parsed, and an ApiError carrying
 * the server's sentence on failure (`failure` is the sentence when the server gave none).
 * A `background` request (a poll nobody is waiting on) waits out a credentials change.
 */
export async function apiRequest<T>(
  method: Method,
  path: string,
  init: {
    body?: BodyInit;
    contentType?: string;
    signal?: AbortSignal;
    failure?: string;
    background?: boolean;
  } = {},
): Promise<T> {
  while (init.background && credentialsChanging) await credentialsChanging;
  unanswered++;
  try {
    return await send<T>(method, path, init);
  } finally {
    if (--unanswered === 0) {
      const waiting = onAllAnswered;
      onAllAnswered = [];
      for (const resume of waiting) resume();
    }
  }
}

async function send<T>(
  method: Method,
  path: string,
  init: { body?: BodyInit; contentType?: string; signal?: AbortSignal; failure?: string },
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (init.contentType) headers["content-type"] = init.contentType;
  const token = csrfToken();
  if (token) headers["x-hermes-csrf-token"] = token;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: init.body,
      credentials: "same-origin",
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(t("shell.serverUnreachable"), 0, null);
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch { /* not JSON: reported below */ }
  if (!res.ok) {
    const message = (parsed as { error?: unknown } | null)?.error;
    throw new ApiError(
      typeof message === "string"
        ? message
        : init.failure
        ? t("shell.failureWithStatus", { failure: init.failure, status: res.status })
        : t("shell.requestFailed", { method, path, status: res.status }),
      res.status,
      parsed,
    );
  }
  return parsed as T;
}
