// THE server-side request forgery guard: every outbound fetch to a URL a user or a model
// supplied goes through `guardedFetch`. Invariants: http/https only, no credentials in URLs,
// every resolved address is checked (link-local and cloud metadata addresses are refused
// always, loopback/private ones unless the endpoint is the user's own), each redirect hop is
// re-checked, and plain-http connections are pinned to the address that was checked.
import { lookup } from "node:dns/promises";
import { ValidationError } from "../errors.ts";

/** A URL the guard refuses. A 400 when it reaches a route; a tool error message otherwise. */
export class BlockedUrlError extends ValidationError {
  override name = "BlockedUrlError";
}

/** Resolve a hostname to every address it has (A and AAAA). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface UrlGuardOptions {
  /** Allow loopback and private-network addresses: only for endpoints the user configured. */
  allowPrivate?: boolean;
  /** DNS lookup (default: the system resolver, which honours /etc/hosts). */
  resolve?: HostResolver;
  /** Abandons a slow DNS lookup. */
  signal?: AbortSignal;
  /**
   * False: judge host NAMES by their text only, without resolving them. Only for a transport
   * that never resolves names itself (a test seam standing in for the network); IP literals,
   * localhost and metadata names are still judged as always.
   */
  resolveNames?: boolean;
}

export interface GuardedFetchOptions extends UrlGuardOptions {
  /** Redirect hops followed, each re-checked (default 5). */
  maxRedirects?: number;
  /** The fetch implementation (tests inject one). Pinning applies only to the real fetch. */
  fetch?: typeof fetch;
}

/** What a checked URL resolved to. */
export interface CheckedUrl {
  url: URL;
  /** The addresses the host resolved to (an IP literal host: itself). All passed the check. */
  addresses: string[];
  /** True when the host was a name (not an IP literal) and was resolved. */
  resolved: boolean;
}

/** Where an address may be reached from a server-side fetch. */
export type AddressClass = "public" | "private" | "blocked";

const METADATA_HOSTNAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** True for the well-known names of cloud metadata services. */
export function isMetadataHostname(host: string): boolean {
  return METADATA_HOSTNAMES.has(host.replace(/\.$/, "").toLowerCase());
}

/** AWS's IPv6 instance metadata service, fd00:ec2::254 (inside the otherwise private fc00::/7). */
const EC2_METADATA_V6 = parseIpv6("fd00:ec2::254")!;

/** Parse a dotted-quad IPv4 address (canonical form, as WHATWG URL and resolvers produce). */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    out.push(Number(p));
  }
  return out;
}

/** Parse an IPv6 address (with `::`, an embedded dotted quad or a zone id) to 16 bytes. */
export function parseIpv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  if (!s.includes(":")) return null;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    const v4 = parseIpv4(s.slice(lastColon + 1));
    if (!v4) return null;
    tail = v4;
    s = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const toGroups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  const bytes: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function classifyIpv4([a, b, c, d]: number[]): { cls: AddressClass; why: string } {
  if (a === 0) return { cls: "blocked", why: "an unspecified (0.0.0.0/8) address" };
  if (a === 169 && b === 254) return { cls: "blocked", why: "a link-local/metadata address" };
  if (a === 100 && b === 100 && c === 100 && d === 200) {
    return { cls: "blocked", why: "a cloud metadata address" };
  }
  if (a === 192 && b === 0 && c === 0) return { cls: "blocked", why: "a reserved address" };
  if (
    (a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  ) return { cls: "blocked", why: "a documentation address" };
  if (a >= 224) return { cls: "blocked", why: "a multicast or reserved address" };
  if (a === 127) return { cls: "private", why: "a loopback address" };
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) {
    return { cls: "private", why: "a private-network address" };
  }
  if (a === 100 && b >= 64 && b <= 127) return { cls: "private", why: "a shared (CGNAT) address" };
  if (a === 198 && (b === 18 || b === 19)) return { cls: "private", why: "a benchmark address" };
  return { cls: "public", why: "a public address" };
}

const allZero = (bytes: number[]) => bytes.every((x) => x === 0);

/**
 * Classify an IP address (v4 or v6, any textual form a resolver returns). IPv6 forms that
 * embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by the embedded address,
 * so `::ffff:169.254.169.254` is as blocked as `169.254.169.254`.
 */
export function classifyAddress(address: string): { cls: AddressClass; why: string } {
  const v4 = parseIpv4(address);
  if (v4) return classifyIpv4(v4);
  const b = parseIpv6(address);
  if (!b) return { cls: "blocked", why: "not an IP address" };
  const embedded = (from: number) => classifyIpv4(b.slice(from, from + 4));
  if (allZero(b)) return { cls: "blocked", why: "the unspecified address" };
  if (allZero(b.slice(0, 15)) && b[15] === 1) return { cls: "private", why: "a loopback address" };
  if (allZero(b.slice(0, 10)) && b[10] === 0xff && b[11] === 0xff) return embedded(12);
  if (allZero(b.slice(0, 12))) return embedded(12); // IPv4-compatible (deprecated)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    return embedded(12); // NAT64 64:ff9b::/96 and the local-use 64:ff9b:1::/48
  }
  if (b[0] === 0x20 && b[1] === 0x02) return embedded(2); // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) {
    return { cls: "blocked", why: "a Teredo tunnel address" };
  }
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) {
    return { cls: "blocked", why: "a documentation address" };
  }
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) {
    return { cls: "blocked", why: "a link-local address" };
  }
  if (b[0] === 0xff) return { cls: "blocked", why: "a multicast address" };
  if (b[0] === 0x01 && allZero(b.slice(1, 8))) return { cls: "blocked", why: "a discard address" };
  if (b.every((x, i) => x === EC2_METADATA_V6[i])) {
    return { cls: "blocked", why: "a cloud metadata address" };
  }
  if ((b[0] & 0xfe) === 0xfc) return { cls: "private", why: "a unique-local address" };
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) {
    return { cls: "private", why: "a site-local address" };
  }
  return { cls: "public", why: "a public address" };
}

/** The system resolver: every address of `hostname`, via getaddrinfo (honours /etc/hosts). */
export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((r) => r.address);

function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The URL without query or fragment: what error messages may show (queries can hold keys). */
export function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * Check `input` against the SSRF rules and return the addresses it resolved to. Throws
 * `BlockedUrlError` naming the rule; rethrows DNS failures (an unreachable host, not a
 * refusal). Hostnames are resolved and EVERY address must pass, so a name with one public and
 * one metadata address is refused.
 */
export async function checkUrl(
  input: string | URL,
  opts: UrlGuardOptions = {},
): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new BlockedUrlError(`"${String(input).slice(0, 200)}" is not a valid URL`);
  }
  const shown = describeUrl(url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BlockedUrlError(`Refusing ${url.protocol} URL ${shown}: only http and https`);
  }
  if (url.username || url.password) {
    throw new BlockedUrlError(`Refusing ${shown}: credentials in URLs are not allowed`);
  }
  const host = url.hostname.replace(/\.$/, "").toLowerCase();
  if (!host) throw new BlockedUrlError(`Refusing ${shown}: no host`);
  const refuse = (why: string) => new BlockedUrlError(`Refusing ${shown}: the host is ${why}`);
  if (METADATA_HOSTNAMES.has(host)) throw refuse("a cloud metadata service");
  let addresses: string[];
  let resolved = false;
  if (parseIpv4(host) || host.startsWith("[")) {
    addresses = [host.replace(/^\[|\]$/g, "")];
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    addresses = ["127.0.0.1"];
  } else if (opts.resolveNames === false) {
    return { url, addresses: [], resolved: false };
  } else {
    addresses = await abortable((opts.resolve ?? systemResolver)(host), opts.signal);
    resolved = true;
    if (addresses.length === 0) throw new Error(`Cannot resolve host "${host}"`);
  }
  for (const addr of addresses) {
    const { cls, why } = classifyAddress(addr);
    if (cls === "blocked") throw refuse(`${why} (${addr})`);
    if (cls === "private" && !opts.allowPrivate) {
      throw refuse(`${why} (${addr}); only endpoints you configure may use one`);
    }
  }
  return { url, addresses, resolved };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie", "x-api-key"];

/** Wrap a body so `client` closes when the body is fully read or cancelled. */
function closeWithBody(res: Response, client: Deno.HttpClient): Response {
  if (!res.body) {
    client.close();
    return res;
  }
  const reader = res.body.getReader();
  let closed = false;
  const close = () => {
    if (!closed) (closed = true, client.close());
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const { done, value } = await reader.read();
        if (done) (close(), ctrl.close());
        else ctrl.enqueue(value);
      } catch (err) {
        close();
        ctrl.error(err);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {});
      close();
    },
  });
  return new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/** One hop: plain http to a resolved name connects to the checked address (no DNS rebinding). */
async function fetchHop(
  checked: CheckedUrl,
  init: RequestInit,
  f?: typeof fetch,
): Promise<Response> {
  const pin = !f && checked.resolved && checked.url.protocol === "http:";
  if (!pin) return await (f ?? fetch)(checked.url, init);
  // https needs no pin: certificate verification binds the connection to the hostname.
  const port = Number(checked.url.port || 80);
  const client = Deno.createHttpClient({
    proxy: { transport: "tcp", hostname: checked.addresses[0], port },
  });
  try {
    return closeWithBody(await fetch(checked.url, { ...init, client }), client);
  } catch (err) {
    client.close();
    throw err;
  }
}

/**
 * `fetch` for user-supplied URLs. Redirects are followed by hand (at most `maxRedirects`),
 * each target re-checked; credentials headers are dropped when a redirect changes origin, and
 * a 303 (or a 301/302 after POST) continues as a body-less GET, as browsers do.
 */
export async function guardedFetch(
  input: string | URL,
  init: RequestInit = {},
  opts: GuardedFetchOptions = {},
): Promise<Response> {
  const maxRedirects = opts.maxRedirects ?? 5;
  const signal = opts.signal ?? init.signal ?? undefined;
  let url = new URL(String(input));
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  for (let hop = 0;; hop++) {
    const checked = await checkUrl(url, { ...opts, signal });
    const res = await fetchHop(
      checked,
      { ...init, method, body, headers, signal, redirect: "manual" },
      opts.fetch,
    );
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || !location) return res;
    await res.body?.cancel().catch(() => {});
    if (hop >= maxRedirects) {
      throw new BlockedUrlError(
        `Refusing ${describeUrl(url)}: more than ${maxRedirects} redirects`,
      );
    }
    const next = new URL(location, url);
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
      if (method !== "HEAD") method = "GET";
      body = undefined;
      headers.delete("content-type");
      headers.delete("content-length");
    } else if (body instanceof ReadableStream) {
      throw new BlockedUrlError(`Cannot replay a streamed body to redirect ${describeUrl(next)}`);
    }
    if (next.origin !== url.origin) { for (const h of CREDENTIAL_HEADERS) headers.delete(h); }
    url = next;
  }
}

/**
 * `guardedFetch` shaped like `fetch`, for clients that take a fetch option (the AI SDK's
 * provider factories, the MCP transport): every request they make, redirects included, is
 * checked against `opts` at request time, whatever was checked when the URL was written.
 */
export function guardedFetchFunction(opts: GuardedFetchOptions = {}): typeof fetch {
  return (input: string | URL | Request, init?: RequestInit) => {
    if (input instanceof Request) {
      // Keep everything the Request carries; `init` (if any) overrides, as fetch() does.
      const req = init ? new Request(input, init) : input;
      return guardedFetch(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        ...(req.body ? { duplex: "half" } as RequestInit : {}),
      }, opts);
    }
    return guardedFetch(input, init, opts);
  };
}

/**
 * Check a URL the user is about to save as a provider endpoint (`base_url`): loopback and
 * private hosts are fine (the user's own servers), metadata, link-local and unspecified ones
 * (`0.0.0.0`, `::`) are a 400 naming `field`. A name that cannot be resolved right now is let
 * through: the request-time guard (model_stream's fetch) judges it on every use.
 */
export async function checkEndpointUrl(
  raw: string,
  field = "base_url",
  opts: Pick<UrlGuardOptions, "resolve"> = {},
): Promise<void> {
  try {
    await checkUrl(raw, {
      allowPrivate: true,
      resolve: opts.resolve,
      signal: AbortSignal.timeout(3000),
    });
  } catch (err) {
    if (err instanceof BlockedUrlError) {
      throw new BlockedUrlError(`Invalid field "${field}": ${err.message}`, field);
    }
    // DNS failure or timeout: not a refusal (see above).
  }
}
