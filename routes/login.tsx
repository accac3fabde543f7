// The login page (public). Already logged in, or auth off → straight on to `next`. The form
// works without JavaScript (a form post answered with a redirect); static/login.js upgrades it
// to fetch so a wrong password is reported in place.
import type { Handlers, PageProps } from "../lib/server/file_router.ts";
import type { AuthState } from "../lib/security/auth.ts";
import { safeNextPath } from "../lib/security/request_guard.ts";

interface LoginData {
  next: string;
  error: string | null;
}

const ERRORS: Record<string, string> = {
  invalid: "That password is not right. Try again.",
  rate: "Too many failed attempts. Wait a minute, then try again.",
};

export const handler: Handlers<LoginData> = {
  GET(_req, ctx) {
    const next = safeNextPath(ctx.url.searchParams.get("next"));
    const auth = ctx.state.auth as AuthState | undefined;
    if (!auth?.enabled || auth.loggedIn) {
      return new Response(null, {
        status: 302,
        headers: { location: next, "cache-control": "no-store" },
      });
    }
    ctx.state.title = "Sign in";
    const error = ERRORS[ctx.url.searchParams.get("error") ?? ""] ?? null;
    return ctx.render({ next, error }, { headers: { "cache-control": "no-store" } });
  },
};

export default function Login({ data }: PageProps<LoginData>) {
  return (
    <main class="login-shell">
      <link rel="stylesheet" href="/static/login.css" />
      <form
        class="login-card"
        id="login-form"
        method="post"
        action="/api/auth/login"
        data-next={data.next}
      >
        <div class="login-brand" aria-hidden="true">☤</div>
        <h1 class="login-title">Hermes Console</h1>
        <p class="login-hint">This console is protected. Enter its password to continue.</p>
        <label class="login-label" for="login-password">Password</label>
        <input
          class="login-input"
          id="login-password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          autofocus
        />
        <input type="hidden" name="next" value={data.next} />
        <p class="login-error" id="login-error" role="alert" aria-live="polite">
          {data.error ?? ""}
        </p>
        <button class="login-submit" id="login-submit" type="submit">Sign in</button>
      </form>
      <script type="module" src="/static/login.js"></script>
    </main>
  );
}
