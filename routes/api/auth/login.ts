// POST /api/auth/login {password} → {ok:true} + the `hermes_session` cookie. Wrong password →
// 401 "Invalid password"; more than 5 failures per 60 s per client → 429. A plain HTML form
// post (no JavaScript) is accepted too and answered with a redirect.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import {
  authEnabled,
  checkPassword,
  createLoginSession,
  sessionCookie,
} from "../../../lib/security/auth.ts";
import { AuthError, RateLimitError } from "../../../lib/errors.ts";
import {
  json,
  MAX_UNAUTHENTICATED_BODY_BYTES,
  readBody,
  readBodyBytes,
} from "../../../lib/server/http.ts";
import { safeNextPath } from "../../../lib/security/request_guard.ts";

const LoginBody = z.object({ password: z.string().min(1).max(4096) });

export const handler: Handlers = {
  async POST(req, { app, url, remoteAddr }) {
    const isForm = (req.headers.get("content-type") ?? "").startsWith(
      "application/x-www-form-urlencoded",
    );
    let password: string;
    let next = "/";
    if (isForm) {
      const form = new URLSearchParams(
        new TextDecoder().decode(await readBodyBytes(req, MAX_UNAUTHENTICATED_BODY_BYTES)),
      );
      password = form.get("password") ?? "";
      next = safeNextPath(form.get("next"));
    } else {
      ({ password } = await readBody(req, LoginBody, MAX_UNAUTHENTICATED_BODY_BYTES));
    }
    const secure = url.protocol === "https:";
    const sec = app.security;
    if (!authEnabled(sec)) {
      return isForm ? redirect(next) : json({ ok: true });
    }
    // Count the attempt before checking it, so parallel guesses cannot exceed the limit.
    const attempt = sec.limits.login.hit(remoteAddr);
    if (!attempt.ok) {
      if (isForm) return redirect(loginPage(next, "rate"));
      throw new RateLimitError(
        `Too many failed login attempts; try again in ${attempt.retryAfterSeconds} s`,
        attempt.retryAfterSeconds,
      );
    }
    if (!(await checkPassword(sec, password))) {
      app.log.warn("Failed login attempt", { client: remoteAddr });
      if (isForm) return redirect(loginPage(next, "invalid"));
      throw new AuthError("Invalid password");
    }
    sec.limits.login.reset(remoteAddr);
    const cookie = sessionCookie(await createLoginSession(sec), secure);
    if (isForm) return redirect(next, cookie);
    return json({ ok: true }, 200, { "set-cookie": cookie });
  },
};

function loginPage(next: string, error: string): string {
  return `/login?next=${encodeURIComponent(next)}&error=${error}`;
}

function redirect(location: string, cookie?: string): Response {
  const headers: Record<string, string> = { location, "cache-control": "no-store" };
  if (cookie) headers["set-cookie"] = cookie;
  return new Response(null, { status: 303, headers });
}
