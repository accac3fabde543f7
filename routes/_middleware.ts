// Outermost middleware, in order: security and caching headers on every response (errors
// included; Permissions-Policy among them), the Host check (DNS rebinding), the cross-site
// check (CSRF), authentication (401 for the API, a redirect to /login for pages), the page's
// proof token on every write (auth on or off), and the per-client rate limits of chat starts
// and uploads.
import type { Middleware, RouteContext } from "../lib/server/file_router.ts";
import { authEnabled, type AuthState, readLoginSession } from "../lib/security/auth.ts";
import { checkRequestProof, needsProof, pageToken } from "../lib/security/request_proof.ts";
import { OIDC_CALLBACK_PATH } from "../lib/security/oidc.ts";
import {
  AuthError,
  errorToHttp,
  ForbiddenError,
  PayloadTooLargeError,
  RateLimitError,
} from "../lib/errors.ts";
import { json, MAX_UNAUTHENTICATED_BODY_BYTES } from "../lib/server/http.ts";
import { readPreferences, readSettingsAndPreferences } from "../lib/settings/stored_settings.ts";
import { pagePaint } from "../lib/shared/page_preferences.ts";
import { transcriptDisplayAttrs } from "../lib/shared/transcript_display.ts";
import { pickLocale } from "../lib/i18n/locales.ts";
import { fontSizeOf, skinOf } from "../lib/shared/appearance.ts";
import {
  checkHost,
  checkSameOrigin,
  decodedPath,
  GUARDED_GET_PATHS,
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
  // Violations reach the server log (routes/api/csp-report.ts), as in the original.
  "report-uri /api/csp-report",
].join("; ");

/**
 * Browser features for every answer: the microphone for this origin only (voice input records
 * from the page), clipboard writes for this origin (copy buttons); the camera, location,
 * payments and USB for nobody. As the original, plus the two features it leaves at defaults.
 */
const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=(self)",
  "geolocation=()",
  "clipboard-write=(self)",
  "payment=()",
  "usb=()",
].join(", ");

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
  // A WebSocket upgrade (the terminal) is Deno's own 101 response: it cannot be rebuilt.
  if (res.status === 101) return res;
  const headers = new Headers(res.headers);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  // A route may ask for less (a share page sends no Referer at all: no-referrer).
  if (!headers.has("referrer-policy")) headers.set("Referrer-Policy", "same-origin");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  headers.set("Permissions-Policy", PERMISSIONS_POLICY);
  const type = headers.get("content-type") ?? "";
  if (type.startsWith("text/html") && !headers.has("content-security-policy")) {
    headers.set("Content-Security-Policy", CSP);
  }
  if (/^\/(api|partials)\//.test(ctx.url.pathname) && !headers.has("cache-control")) {
    headers.set("Cache-Control", "no-store");
  } else if (
    /^\/(api|partials)\//.test(ctx.url.pathname) &&
    !/\bno-store\b/i.test(headers.get("cache-control") ?? "")
  ) {
    // Streams say no-cache (API.md); the API's rule adds no-store to whatever a route set.
    headers.set("Cache-Control", `${headers.get("cache-control")}, no-store`);
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
};

/** Public paths whose answer does not depend on the person or the settings. */
function answersAnyone(path: string): boolean {
  return path.startsWith("/static/") || path === "/health";
}

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
  } else if (
    isApi && path !== OIDC_CALLBACK_PATH &&
    req.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site"
  ) {
    // No other site has a reason to load the API (links, <img>, <script> included), except
    // the sign-in provider sending the browser back (its state proves the request).
    throw new ForbiddenError("Cross-site request refused");
  }

  const sec = app.security;
  // Static files and /health are the same for everyone and read nothing of who asks: they skip
  // the login lookup, so a database that stalls never holds them (a stylesheet, a health probe).
  if ((method === "GET" || method === "HEAD") && answersAnyone(path)) {
    ctx.state.auth = { enabled: false, loggedIn: false } satisfies AuthState;
    return await ctx.next();
  }
  const auth: AuthState = { enabled: await authEnabled(sec), loggedIn: false };
  if (auth.enabled) {
    const session = await readLoginSession(sec, req);
    if (session) Object.assign(auth, { loggedIn: true, ...session });
  } else {
    auth.loggedIn = true;
  }
  ctx.state.auth = auth;
  if (!isApi && method === "GET" && !path.startsWith("/static/")) {
    const token = await pageToken(sec, auth); // the page's <meta> for its scripts' writes
    if (token) ctx.state.csrfToken = token;
  }

  if (!auth.loggedIn) {
    // Before logging in, a body is a password at most: refuse a flood up front (the login
    // route caps what it reads to the same size when no length is declared).
    const declared = Number(req.headers.get("content-length") ?? "0");
    if (declared > MAX_UNAUTHENTICATED_BODY_BYTES) {
      throw new PayloadTooLargeError(
        `Request body is ${declared} bytes; before logging in the limit is ` +
          `${MAX_UNAUTHENTICATED_BODY_BYTES} bytes`,
      );
    }
  }
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

  // Every write (and state-changing GET) proves it comes from the console's page: its token
  // in X-Hermes-CSRF-Token, auth on or off (lib/security/request_proof.ts). The Origin check
  // alone lets through any local process that omits Origin, such as the agent's own shell.
  if (needsProof(method, path)) await checkRequestProof(sec, req, auth);

  if (method === "POST" && (path === "/api/chat/start" || path === "/api/upload")) {
    const limiter = path === "/api/upload" ? sec.limits.upload : sec.limits.chatStart;
    const decision = await limiter.hit(ctx.remoteAddr);
    if (!decision.ok) {
      const what = path === "/api/upload" ? "uploads" : "chat starts";
      throw new RateLimitError(
        `Too many ${what}: at most ${limiter.limit} per ${limiter.windowSeconds} s; ` +
          `try again in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
      );
    }
  }
  // HTML fragments (/partials/*) speak the page's language too.
  if (method === "GET" && path.startsWith("/partials/")) {
    ctx.state.locale = pickLocale(
      (await readPreferences(app.db)).language,
      req.headers.get("accept-language"),
    );
  }
  // Pages paint in the user's theme from the first frame (routes/_app.tsx reads it).
  if (!isApi && method === "GET" && !path.startsWith("/static/")) {
    // One query for all of it: this runs before every page.
    const { settings: stored, preferences: prefs } = await readSettingsAndPreferences(app.db);
    ctx.state.theme = stored.theme;
    // The Control Center's "Show thinking" toggle: hidden thinking never flashes in first.
    ctx.state.showThinking = stored.show_thinking !== false;
    // The language: the `language` setting when one is chosen, else the browser's.
    ctx.state.locale = pickLocale(prefs.language, req.headers.get("accept-language"));
    // The skin and text size paint from the first frame too; the desktop sidebar's hidden
    // state (Ctrl/Cmd+B) is this browser's own, kept in a cookie (lib/browser/pages/comfort.ts).
    ctx.state.skin = skinOf(prefs.skin);
    ctx.state.fontSize = fontSizeOf(prefs.font_size);
    // The layout preferences (hidden and reordered controls, density, …) too.
    ctx.state.pagePaint = pagePaint(prefs);
    // The transcript's display preferences (badges, outline, Activity mode, …) too.
    ctx.state.transcriptDisplay = transcriptDisplayAttrs(prefs);
    ctx.state.sidebarHidden = /(?:^|;\s*)hermes_sidebar=hidden(?:;|$)/.test(
      req.headers.get("cookie") ?? "",
    );
  }
  return await ctx.next();
}
