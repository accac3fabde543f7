// Request-level guards run before any route: the Host check (DNS rebinding), the cross-site
// check (CSRF for unsafe methods and state-changing GETs), which paths are public, and where a
// login may send the browser next. Invariants: a refused request throws ForbiddenError before
// any handler runs; requests without Origin/Sec-Fetch-Site (curl, scripts) pass the cross-site
// check; `next` targets are always same-site relative paths.
import type { AppConfig } from "../settings/config.ts";
import { ForbiddenError, ValidationError } from "../errors.ts";
import { hasControlChar } from "../workspace/workspace_paths.ts";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * GET routes with side effects or long-lived streams: they get the same cross-origin checks
 * as unsafe methods (a foreign page must not cancel a run or read a stream via a rebinding).
 */
export const GUARDED_GET_PATHS: ReadonlySet<string> = new Set([
  "/api/chat/cancel",
  "/api/chat/stream",
  "/api/approval/inject_test",
  "/api/approval/stream",
  "/api/terminal/output",
  "/api/terminal/ws",
]);

/** True for methods that change state (POST/PUT/PATCH/DELETE). */
export function isUnsafeMethod(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

/** A request made by a browser page (fetch/XHR/form) rather than curl or a script. */
export function isBrowserRequest(req: Request): boolean {
  return req.headers.has("origin") || req.headers.has("sec-fetch-site");
}

/**
 * Decode a URL path the way the router does. A malformed or overlong percent-encoding (e.g.
 * `%c0%ae`, an overlong "." that once walked paths) is a 400 here, before any route tries to
 * decode it again and fails with a 500.
 */
export function decodedPath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    throw new ValidationError(
      `Malformed percent-encoding in the path "${pathname.slice(0, 200)}"`,
    );
  }
}

/**
 * Auth routes that manage sign-in methods rather than sign in: they need a login like the
 * rest of the API (listing, adding and removing passkeys).
 */
function isSignInManagementPath(path: string): boolean {
  return path === "/api/auth/passkeys" || path === "/api/auth/passkey/delete" ||
    path === "/api/auth/passkey/register" || path.startsWith("/api/auth/passkey/register/");
}

/** Paths reachable without logging in (API.md "Health and auth"). */
export function isPublicPath(path: string): boolean {
  return path === "/login" || path === "/health" || path === "/sw.js" ||
    path === "/manifest.json" || path === "/manifest.webmanifest" ||
    path === "/favicon.ico" || path === "/favicon.svg" ||
    (path.startsWith("/api/auth/") && !isSignInManagementPath(path)) ||
    path.startsWith("/static/") || isSharePath(path) || isShareApiPath(path) ||
    path === CSP_REPORT_PATH;
}

/**
 * Where browsers send CSP violation reports (routes/api/csp-report.ts): public, since a browser
 * files them with no login.
 */
export const CSP_REPORT_PATH = "/api/csp-report";

/**
 * `/api/share/<token>`: the JSON form of a share link's snapshot, public like its page. The
 * management routes beside it (create, list, revoke) are not.
 */
export function isShareApiPath(path: string): boolean {
  const m = path.match(/^\/api\/share\/([^/]+)$/);
  return m !== null && !["create", "list", "revoke"].includes(m[1]);
}

/**
 * `/share/<token>`: a share link's read-only page (lib/sharing/shares.ts). One segment only:
 * nothing below it is public.
 */
export function isSharePath(path: string): boolean {
  return /^\/share\/[^/]+$/.test(path);
}

/** Split a Host header value into its lowercase host name (IPv6 keeps brackets). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    return end > 0 ? h.slice(0, end + 1) : h;
  }
  const colon = h.indexOf(":");
  return (colon >= 0 ? h.slice(0, colon) : h).replace(/\.$/, "");
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function isIpLiteral(name: string): boolean {
  const m = name.match(IPV4);
  if (m) return m.slice(1).every((o) => Number(o) <= 255);
  return /^\[[0-9a-f:.]+\]$/.test(name);
}

function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || name === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * DNS-rebinding guard. The Host a browser sends is the name in its address bar; a rebinding
 * attack needs it to be the attacker's domain. Accepted: loopback names and addresses, the
 * bound address, names in `config.allowedHosts` (HERMES_WEBUI_ALLOWED_HOSTS) and, when bound
 * to a wildcard address, any IP literal (an IP literal cannot be rebound). Ports are not
 * compared: rebinding does not depend on them, and test servers listen on ephemeral ports.
 */
export function checkHost(req: Request, config: Pick<AppConfig, "host" | "allowedHosts">): void {
  const raw = req.headers.get("host") ?? new URL(req.url).host;
  const name = hostName(raw);
  if (name !== "" && hostAllowed(name, raw.trim().toLowerCase(), config)) return;
  throw new ForbiddenError(
    `Host "${raw.slice(0, 100)}" is not allowed; add it to HERMES_WEBUI_ALLOWED_HOSTS ` +
      `to reach the console under that name`,
  );
}

function hostAllowed(
  name: string,
  full: string,
  config: Pick<AppConfig, "host" | "allowedHosts">,
): boolean {
  if (isLoopbackName(name)) return true;
  const bound = hostName(
    config.host.includes(":") && !config.host.startsWith("[") ? `[${config.host}]` : config.host,
  );
  if (name === bound) return true;
  if ((bound === "0.0.0.0" || bound === "[::]") && isIpLiteral(name)) return true;
  // "name" allows the name on any port; "name:port" only that exact Host value.
  return config.allowedHosts.some((h) => {
    const allowed = h.trim().toLowerCase();
    return hasPort(allowed) ? allowed === full : hostName(allowed) === name;
  });
}

/**
 * Cross-site guard for unsafe methods and GUARDED_GET_PATHS (API.md: 403 on
 * `Sec-Fetch-Site: cross-site` or a foreign Origin/Referer). `same-site` is refused too: a
 * sibling origin (another port on localhost, another subdomain) is still a different app.
 */
export function checkSameOrigin(
  req: Request,
  config: Pick<AppConfig, "allowedHosts"> = { allowedHosts: [] },
): void {
  const site = req.headers.get("sec-fetch-site")?.toLowerCase();
  if (site === "cross-site" || site === "same-site") {
    throw new ForbiddenError("Cross-site request refused");
  }
  const host = (req.headers.get("host") ?? new URL(req.url).host).trim().toLowerCase();
  // Behind a reverse proxy that rewrites Host, the page's origin is the public name: an
  // allowed host (HERMES_WEBUI_ALLOWED_HOSTS) is the console's own name, so it counts as same.
  const ours = (value: string) => {
    const h = originHost(value);
    if (h === null) return false;
    if (h === host) return true;
    const name = hostName(h);
    return config.allowedHosts.some((a) => {
      const allowed = a.trim().toLowerCase();
      return allowed === h || (!hasPort(allowed) && hostName(allowed) === name);
    });
  };
  const origin = req.headers.get("origin");
  if (origin !== null) {
    if (!ours(origin)) {
      throw new ForbiddenError("Cross-origin request refused: Origin does not match Host");
    }
    return;
  }
  const referer = req.headers.get("referer");
  if (referer !== null && referer !== "" && !ours(referer)) {
    throw new ForbiddenError("Cross-origin request refused: Referer does not match Host");
  }
}

function hasPort(host: string): boolean {
  return /^\[[^\]]*\]:\d+$/.test(host) || /^[^:\[\]]+:\d+$/.test(host);
}

function originHost(value: string): string | null {
  if (value === "null") return null;
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:" ? u.host.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * Where to go after logging in. Only same-site relative paths are honoured: `/x?y#z` yes;
 * `//evil`, `/\evil`, `/.//evil`, `/%2e%2e//evil`, `https://…`, `javascript:`, control
 * characters or anything that would resolve (after dot segments) to another origin → "/".
 */
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next === "" || next.length > 2048) return "/";
  if (!next.startsWith("/") || next.startsWith("//")) return "/";
  // Browsers treat `\` as `/` and drop tabs/newlines inside URLs: refuse them outright.
  if (/[\\\s]/.test(next) || hasControlChar(next)) return "/";
  let decoded = next;
  try {
    decoded = decodeURIComponent(next);
  } catch {
    return "/";
  }
  if (decoded.startsWith("//") || decoded.includes("\\") || hasControlChar(decoded)) return "/";
  try {
    const base = "http://console.invalid";
    const u = new URL(next, base);
    if (u.origin !== base) return "/";
    // Dot segments can fold `/.//evil` or `/x/..//evil` into `//evil`, which a browser reads
    // as another host: the NORMALIZED path must be one `/` then neither `/` nor `\`.
    if (!/^\/(?![\/\\])/.test(u.pathname)) return "/";
    if (u.pathname === "/login") return "/";
    return u.pathname + u.search + u.hash;
  } catch {
    return "/";
  }
}
