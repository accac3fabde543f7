// The login page (public). Already logged in → straight on to `next`; auth off → 200 with a
// note and a link on (as the original answers, not a redirect). The form works without
// JavaScript (a form post answered with a redirect); static/login.js upgrades it to fetch so a
// wrong password is reported in place. The page carries the bot name (settings `bot_name`) in
// its title and heading and speaks the browser's language (lib/security/login_strings.ts).
import type { Handlers, PageProps } from "../lib/server/file_router.ts";
import type { AuthState } from "../lib/security/auth.ts";
import { safeNextPath } from "../lib/security/request_guard.ts";
import { type LoginStrings, loginStrings, pickLoginLang } from "../lib/security/login_strings.ts";
import { readPreferences } from "../lib/settings/settings.ts";
import { passkeysEnabled } from "../lib/security/passkeys.ts";
import { oidcEnabled, oidcProviderName } from "../lib/security/oidc.ts";
import { createBundleReader } from "../lib/server/islands.ts";
import type { PageScriptBundle } from "../lib/server/page_scripts.ts";

/** The built page scripts; /login loads only `passkeys` and only when passkeys exist. */
const readBundle = createBundleReader() as () => PageScriptBundle | undefined;

interface LoginData {
  next: string;
  error: string | null;
  botName: string;
  text: LoginStrings;
  authOff: boolean;
  /** URL of the passkey page script, when a passkey can sign in here. */
  passkeyScript: string | null;
  /** The OpenID Connect provider's name, when sign-in through it is configured. */
  oidcProvider: string | null;
}

export const handler: Handlers<LoginData> = {
  GET(req, ctx) {
    const next = safeNextPath(ctx.url.searchParams.get("next"));
    const auth = ctx.state.auth as AuthState | undefined;
    const authOff = !auth?.enabled;
    if (!authOff && auth?.loggedIn) {
      return new Response(null, {
        status: 302,
        headers: { location: next, "cache-control": "no-store" },
      });
    }
    const lang = pickLoginLang(req.headers.get("accept-language"));
    const text = loginStrings(lang);
    const botName = readPreferences(ctx.app.db).bot_name as string;
    ctx.state.title = `${text.signIn} · ${botName}`;
    ctx.state.lang = lang;
    const code = ctx.url.searchParams.get("error");
    const error = code === "invalid" ? text.invalid : code === "rate" ? text.rate : null;
    const bundle = passkeysEnabled(ctx.app.security) ? readBundle() : undefined;
    const script = bundle?.scripts?.passkeys;
    const passkeyScript = bundle && script ? bundle.base + script.file : null;
    const oidcProvider = oidcEnabled(ctx.app.security) ? oidcProviderName(ctx.app.config) : null;
    return ctx.render({ next, error, botName, text, authOff, passkeyScript, oidcProvider }, {
      headers: { "cache-control": "no-store", "content-language": lang },
    });
  },
};

export default function Login({ data }: PageProps<LoginData>) {
  const { text } = data;
  if (data.authOff) {
    return (
      <main class="login-shell">
        <link rel="stylesheet" href="/static/login.css" />
        <div class="login-card">
          <div class="login-brand" aria-hidden="true">☤</div>
          <h1 class="login-title">{data.botName}</h1>
          <p class="login-hint" id="login-auth-off">{text.authOff}</p>
          <a class="login-submit" href={data.next}>{text.openConsole}</a>
        </div>
      </main>
    );
  }
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
        <h1 class="login-title">{data.botName}</h1>
        <p class="login-hint">{text.hint}</p>
        <label class="login-label" for="login-password">{text.password}</label>
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
        <button class="login-submit" id="login-submit" type="submit">{text.signIn}</button>
        {data.passkeyScript
          ? (
            <button
              class="login-alt"
              type="button"
              id="login-passkey"
              data-passkey-login
              data-next={data.next}
            >
              {text.passkey}
            </button>
          )
          : null}
        {data.oidcProvider
          ? (
            <a
              class="login-alt"
              id="login-oidc"
              href={`/api/auth/oidc/login?next=${encodeURIComponent(data.next)}`}
            >
              {text.withProvider.replace("{provider}", data.oidcProvider)}
            </a>
          )
          : null}
      </form>
      <script type="module" src="/static/login.js"></script>
      {data.passkeyScript ? <script type="module" src={data.passkeyScript}></script> : null}
    </main>
  );
}
