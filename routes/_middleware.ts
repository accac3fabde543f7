// Outermost middleware: the security and caching headers of API.md on every response.
import type { Middleware } from "../lib/file_router.ts";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

export const handler: Middleware = async (_req, ctx) => {
  const res = await ctx.next();
  const headers = new Headers(res.headers);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "same-origin");
  const type = headers.get("content-type") ?? "";
  if (type.startsWith("text/html")) headers.set("Content-Security-Policy", CSP);
  if (ctx.url.pathname.startsWith("/api/") && !headers.has("cache-control")) {
    headers.set("Cache-Control", "no-store");
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
};
