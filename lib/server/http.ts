// HTTP helpers shared by every route: bounded JSON body reading, schema validation with
// errors that name the field at fault, query parameters, and JSON responses with the API's
// headers. Invariants: a body over the cap is refused while reading (never buffered whole);
// JSON nested deeper than MAX_JSON_DEPTH is refused before it is parsed.
import type { z } from "zod";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";

/** API.md: request bodies over 20 MB get 413. */
export const MAX_JSON_BODY_BYTES = 20 * 1024 * 1024;

/**
 * Bodies a client may send before it has logged in (the login form, and anything else a
 * public route reads): a password fits many times over, a flood of megabytes does not.
 */
export const MAX_UNAUTHENTICATED_BODY_BYTES = 8 * 1024;

/**
 * Deepest JSON nesting accepted from a client. Real bodies (a session export included) stay
 * under ten levels; thousands of levels only serve to exhaust recursive code downstream
 * (validation, export, rendering).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Refuse (400) JSON text nested deeper than `maxDepth` arrays/objects. A linear scan that
 * skips string contents, run BEFORE JSON.parse so a hostile body costs one pass, no more.
 */
export function checkJsonDepth(text: string, maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) {
        throw new ValidationError(
          `JSON body is nested deeper than ${maxDepth} levels; flatten it`,
        );
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
}

/** Parse JSON text from a client: depth-checked first, then a 400 naming the syntax error. */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  checkJsonDepth(text, maxDepth);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`Invalid JSON body: ${(err as Error).message}`);
  }
}

/** Read a request body as bytes, refusing with 413 past `maxBytes` without buffering more. */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new PayloadTooLargeError(
      `Request body is ${declared} bytes; the limit is ${maxBytes} bytes`,
    );
  }
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(`Request body exceeds the limit of ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Read a JSON object body. Empty, invalid or non-object JSON is a 400 with a message. */
export async function readJsonObject(
  req: Request,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(req, maxBytes);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") {
    throw new ValidationError("Request body is empty; expected a JSON object");
  }
  const value = parseJsonText(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("Request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Validate `value` against a zod schema; the error names the first field at fault. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.join(".");
  const message = field ? `Invalid field "${field}": ${issue.message}` : issue.message;
  throw new ValidationError(message, field || undefined);
}

/** Read a JSON body (at most `maxBytes`) and validate it in one step. */
export async function readBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<z.infer<S>> {
  return validate(schema, await readJsonObject(req, maxBytes));
}

/** A required query parameter, or a 400 naming it. */
export function requireParam(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value === "") {
    throw new ValidationError(`Missing required parameter "${name}"`, name);
  }
  return value;
}

/**
 * A JSON object `{...fields, [listKey]: [...]}` as a stream, the list's items coming in
 * pre-encoded chunks (each: one or more items' JSON joined by commas). Each chunk is taken from
 * `chunks` only when the client has taken the one before (a pull per chunk), so a long list is
 * never one string in memory and an async source (database batches) is read at the client's
 * pace; a client that goes away ends the source (its `return`). A chunk may be reused from a
 * cache (lib/sessions/session_list_cache.ts).
 */
export function jsonEncodedListStream(
  listKey: string,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  fields: Record<string, unknown>,
): Response {
  const enc = new TextEncoder();
  const comma = enc.encode(",");
  let source: AsyncIterator<Uint8Array> | Iterator<Uint8Array> | null = null;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!source) {
        source = Symbol.asyncIterator in chunks
          ? chunks[Symbol.asyncIterator]()
          : chunks[Symbol.iterator]();
        const head = JSON.stringify(fields).slice(0, -1);
        controller.enqueue(
          enc.encode(`${head}${head.length > 1 ? "," : ""}${JSON.stringify(listKey)}:[`),
        );
        return;
      }
      for (;;) {
        const next = await source.next();
        if (next.done) {
          controller.enqueue(enc.encode("]}"));
          controller.close();
          return;
        }
        if (next.value.byteLength === 0) continue;
        if (sent++ > 0) controller.enqueue(comma);
        // Enqueued as is: a default stream hands chunks on without transferring their buffer,
        // so a cached chunk stays whole (tests/storage/session_list_cache_test.ts serves one
        // three times).
        controller.enqueue(next.value);
        return;
      }
    },
    async cancel() {
      await source?.return?.();
    },
  });
  return new Response(body, {
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Items' JSON joined by commas, encoded: one chunk for jsonEncodedListStream. */
export function encodeListChunk(items: readonly unknown[]): Uint8Array {
  return new TextEncoder().encode(items.map((x) => JSON.stringify(x)).join(","));
}

/** jsonEncodedListStream over batches of items (`next` returns null at the end). */
export function jsonListStream(
  listKey: string,
  next: () => readonly unknown[] | null,
  fields: Record<string, unknown>,
): Response {
  function* chunks(): Generator<Uint8Array> {
    for (let items = next(); items !== null; items = next()) yield encodeListChunk(items);
  }
  return jsonEncodedListStream(listKey, chunks(), fields);
}

/** Batches of `items` for jsonListStream. */
export function inBatches<T>(items: readonly T[], size = 200): () => T[] | null {
  let at = 0;
  return () => (at >= items.length ? null : items.slice(at, at += size));
}

/** A JSON response with the API's caching header. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...headers,
    },
  });
}
