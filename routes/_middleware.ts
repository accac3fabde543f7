// Outermost middleware, in order: security and caching headers on every response (errors
// included), the Host check (DNS rebinding), the cross-site check (CSRF), authentication
// (401 for the API, a redirect to /login for pages), the CSRF token for browser writes, and
// the per-client rate limits of chat starts and uploads.
import type { Middleware, RouteContext } from "../lib/server/file_router.ts";
import {
  authEnabled,
  type AuthState,
  CSRF_HEADER,
  csrfTokenMatches,
  readLoginSession,
} from "../lib/security/auth.ts";
import { AuthError, errorToHttp, ForbiddenError, RateLimitError } from "../lib/errors.ts";
import { json } from "../lib/server/http.ts";
import { readStoredSettings } from "../lib/settings/settings.ts";
import {
  checkHost,
  checkSameOrigin,
  decodedPath,
  GUARDED_GET_PATHS,
  isBrowserRequest,
  isPublicPath,
  isUnsafeMethod,
} from "../lib/security/request_guard.ts";

/**
 * Pages: scripts and styles only from this origin (no inline script, no eval). Inline styles
 * stay allowed because rendered math (KaTeX) and highlighted code carry style attributes.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

export const handler: Middleware = async (req, ctx) => {
  let res: Response;
  try {
    res = await guard(req, ctx);
  } catch (err) {
    // Thrown by the guards below (the router turns route errors into responses already).
    const { status, body, headers } = errorToHttp(err);
    if (status >= 500) {
      ctx.app.log.error(`${req.method} ${ctx.url.pathname} failed in the request guard`, {
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    }
    res = json(body, status, headers);
  }
  const headers = new Headers(res.headers);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "same-origin");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  const type = headers.get("content-type") ?? "";
  if (type.startsWith("text/html") && !headers.has("content-security-policy")) {
    headers.set("Content-Security-Policy", CSP);
  }
  if (/^\/(api|partials)\//.test(ctx.url.pathname) && !headers.has("cache-control")) {
    headers.set("Cache-Control", "no-store");
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
};

async function guard(req: Request, ctx: RouteContext): Promise<Response> {
  const { app } = ctx;
  const path = decodedPath(ctx.url.pathname);
  // Partials are HTML fragments fetched by page scripts: like the API, they answer 401, not a
  // redirect a script could not follow, and no other site may load them.
  const isApi = path.startsWith("/api/") || path === "/api" || path.startsWith("/partials/");
  const method = req.method.toUpperCase();

  checkHost(req, app.config);
  if (isUnsafeMethod(method) || GUARDED_GET_PATHS.has(path)) {
    checkSameOrigin(req, app.config);
  } else if (isApi && req.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") {
    // No other site has a reason to load the API (links, <img>, <script> included).
    throw new ForbiddenError("Cross-site request refused");
  }

  const sec = app.security;
  const auth: AuthState = { enabled: authEnabled(sec), loggedIn: false };
  if (auth.enabled) {
    const session = await readLoginSession(sec, req);
    if (session) Object.assign(auth, { loggedIn: true, ...session });
  } else {
    auth.loggedIn = true;
  }
  ctx.state.auth = auth;
  if (auth.csrfToken) ctx.state.csrfToken = auth.csrfToken;

  if (!auth.loggedIn && !isPublicPath(path)) {
    if (!isApi && (method === "GET" || method === "HEAD")) {
      const next = ctx.url.pathname + ctx.url.search;
      return new Response(null, {
        status: 302,
        headers: {
          location: `/login?next=${encodeURIComponent(next)}`,
          "cache-control": "no-store",
        },
      });
    }
    throw new AuthError("Authentication required");
  }

  // With auth on, a browser's writes must echo the CSRF token of its session. Login/logout
  // are exempt (no session yet / nothing to protect) but still passed the Origin check above.
  if (
    auth.enabled && auth.csrfToken && isUnsafeMethod(method) && isBrowserRequest(req) &&
    !path.startsWith("/api/auth/") &&
    !csrfTokenMatches(auth.csrfToken, req.headers.get(CSRF_HEADER))
  ) {
    throw new ForbiddenError(`Missing or invalid ${CSRF_HEADER} header`);
  }

  if (method === "POST" && (path === "/api/chat/start" || path === "/api/upload")) {
    const limiter = path === "/api/upload" ? sec.limits.upload : sec.limits.chatStart;
    const decision = limiter.hit(ctx.remoteAddr);
    if (!decision.ok) {
      const what = path === "/api/upload" ? "uploads" : "chat starts";
      throw new RateLimitError(
        `Too many ${what}: at most ${limiter.limit} per ${limiter.windowSeconds} s; ` +
          `try again in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
      );
    }
  }
  // Pages paint in the user's theme from the first frame (routes/_app.tsx reads it).
  if (!isApi && method === "GET" && !path.startsWith("/static/")) {
    ctx.state.theme = readStoredSettings(app.db).theme;
  }
  return await ctx.next();
}
