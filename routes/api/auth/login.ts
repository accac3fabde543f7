// POST /api/auth/login {password} → {ok:true} + the `hermes_session` cookie and a
// `hermes_device` cookie (this browser has signed in). Wrong password → 401 "Invalid password";
// more than 5 failures per 60 s per (account, client) → 429, where a browser holding a device
// cookie is its own client, so failures from its address never lock it out
// (lib/security/login_throttle.ts). A plain HTML form post (no JavaScript) is accepted too and
// answered with a redirect.
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
  beginLoginAttempt,
  failedLoginAttempt,
  succeededLoginAttempt,
} from "../../../lib/security/login_throttle.ts";
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
    if (!(await authEnabled(sec))) {
      return isForm ? redirect(next) : json({ ok: true });
    }
    let attempt;
    try {
      attempt = await beginLoginAttempt(sec, req, remoteAddr);
    } catch (err) {
      if (isForm && err instanceof RateLimitError) return redirect(loginPage(next, "rate"));
      throw err;
    }
    if (!(await checkPassword(sec, password))) {
      await failedLoginAttempt(sec, app.log, attempt);
      if (isForm) return redirect(loginPage(next, "invalid"));
      throw new AuthError("Invalid password");
    }
    const device = await succeededLoginAttempt(sec, attempt, secure);
    const cookie = sessionCookie(await createLoginSession(sec), secure);
    const res = isForm ? redirect(next, cookie) : json({ ok: true }, 200, { "set-cookie": cookie });
    res.headers.append("set-cookie", device);
    return res;
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
