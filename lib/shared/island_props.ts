// Browser-safe: imports nothing from Deno or the database.
// Island props cross the server/browser boundary as JSON in one `<script type=
// "application/json">`: plain JSON values plus @preact/signals signals. A signal travels by
// value and comes back as a signal; one signal reached from several props or islands is
// encoded once and decodes to ONE shared signal, so islands sharing state keep sharing it.
import { isValidElement } from "preact";

/** The custom element that wraps each island's server-rendered HTML (hydration root). */
export const ISLAND_TAG = "hermes-island";
/** The id of the JSON script holding every island's name, chunk URL and encoded props. */
export const ISLANDS_SCRIPT_ID = "__hermes_islands";

/** One island instance on a page, as sent to the browser. */
export interface IslandRecord {
  /** Matches `data-id` on the island's `<hermes-island>` marker. */
  id: number;
  /** Island name: its file under islands/ without extension (`Composer`). */
  name: string;
  /** The module export to hydrate (`default` for the file's default export). */
  export: string;
  /** URL of the island's content-hashed chunk. */
  url: string;
  /** Props in the encoded form (see encodeIslandProps). */
  props: Record<string, unknown>;
}

/** The whole JSON payload of a page. */
export interface IslandPayload {
  /** Encoded values of every signal reached from any island's props, by index. */
  signals: unknown[];
  islands: IslandRecord[];
}

/** A signal as far as the codec cares: something with a readable, writable `value`. */
export interface SignalLike<T = unknown> {
  value: T;
  peek(): T;
}

const SIGNAL_BRAND = Symbol.for("preact-signals");

/** True for @preact/signals signals (and computeds), recognised by their brand symbol. */
export function isSignal(value: unknown): value is SignalLike {
  return typeof value === "object" && value !== null &&
    (value as { brand?: unknown }).brand === SIGNAL_BRAND;
}

/** Thrown when a prop cannot cross to the browser; names the island and the prop path. */
export class IslandPropsError extends Error {
  override name = "IslandPropsError";
}

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  if (typeof value === "bigint") return "a bigint";
  if (typeof value === "number") return String(value);
  if (value instanceof Date) return "a Date (pass epoch seconds instead)";
  if (isValidElement(value)) return "a JSX element";
  if (typeof value === "object" && value !== null) {
    return `an instance of ${value.constructor?.name ?? "an unknown class"}`;
  }
  return typeof value;
}

/**
 * Encodes the props of several islands with one shared signal table. Call `encode()` once
 * per island, then read `signals`. Key `ref` is dropped (refs never cross the wire).
 */
export function createPropsEncoder(): {
  encode(island: string, props: Record<string, unknown>): Record<string, unknown>;
  readonly signals: unknown[];
} {
  const signalIndex = new Map<object, number>();
  const signals: unknown[] = [];

  const fail = (island: string, path: string, what: string): never => {
    throw new IslandPropsError(
      `Island "${island}": prop "${path}" is ${what}; island props must be JSON values or signals`,
    );
  };

  const enc = (island: string, value: unknown, path: string, stack: Set<object>): unknown => {
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") {
      return Number.isFinite(value) ? value : fail(island, path, describe(value));
    }
    if (value === undefined) return null;
    if (isSignal(value)) {
      let index = signalIndex.get(value);
      if (index === undefined) {
        index = signals.length;
        signalIndex.set(value, index);
        signals.push(null); // reserve the slot first: a signal may (indirectly) hold itself
        signals[index] = enc(island, value.peek(), `${path}.value`, stack);
      }
      return { $signal: index };
    }
    if (typeof value !== "object" || isValidElement(value)) {
      return fail(island, path, describe(value));
    }
    if (stack.has(value)) return fail(island, path, "a circular reference");
    stack.add(value);
    try {
      if (Array.isArray(value)) {
        return value.map((v, i) => enc(island, v, `${path}[${i}]`, stack));
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return fail(island, path, describe(value));
      const out: Record<string, unknown> = {};
      let escaped = false;
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue;
        if (k.startsWith("$")) escaped = true;
        out[k] = enc(island, v, path ? `${path}.${k}` : k, stack);
      }
      // Objects whose own keys look like codec markers are wrapped so they decode verbatim.
      return escaped ? { $plain: out } : out;
    } finally {
      stack.delete(value);
    }
  };

  return {
    encode(island, props) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) {
        if (k === "ref" || v === undefined) continue;
        out[k] = enc(island, v, k, new Set());
      }
      return out;
    },
    signals,
  };
}

/**
 * Decodes every island's props of `payload`. `createSignal` is @preact/signals' `signal`;
 * it is only called when the payload holds signals, so a page without them never loads it.
 * Each signal index yields one signal object, shared by all props that referenced it.
 */
export function decodeIslandProps(
  payload: IslandPayload,
  createSignal?: (value: unknown) => SignalLike,
): Record<string, unknown>[] {
  const made = new Map<number, SignalLike>();

  const signalAt = (index: number): SignalLike => {
    let s = made.get(index);
    if (s) return s;
    if (!createSignal) throw new Error("Island payload holds signals but no signal factory");
    if (!(index in payload.signals)) throw new Error(`Island payload has no signal #${index}`);
    s = createSignal(undefined);
    made.set(index, s);
    s.value = dec(payload.signals[index]);
    return s;
  };

  const decObject = (obj: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = dec(v);
    return out;
  };

  const dec = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map(dec);
    const obj = value as Record<string, unknown>;
    if (typeof obj.$signal === "number") return signalAt(obj.$signal);
    if (obj.$plain && typeof obj.$plain === "object") {
      return decObject(obj.$plain as Record<string, unknown>);
    }
    return decObject(obj);
  };

  return payload.islands.map((island) => decObject(island.props));
}

/** True when the payload references at least one signal (the client then loads signals). */
export function payloadHasSignals(payload: IslandPayload): boolean {
  return payload.signals.length > 0;
}

/**
 * JSON for a `<script type="application/json">` body: `<`, `>`, `&` and the JS line
 * separators are escaped so no prop value can close the script or open a comment.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}
