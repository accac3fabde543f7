// The login page (public). Already logged in → straight on to `next`; auth off → 200 with a
// note and a link on (as the original answers, not a redirect). The form works without
// JavaScript (a form post answered with a redirect); static/login.js upgrades it to fetch so a
// wrong password is reported in place. As the original's login page: the title is
// "<bot name> — <Sign in>" (settings `bot_name`), `lang` is its region tag (zh-CN, zh-TW, ru-RU…),
// and the script is the classic `<script src="/static/login.js">` (same origin: the CSP stays
// strict). It speaks the page's language (lib/i18n: the setting, else the browser's).
import type { Handlers, PageProps } from "../lib/server/file_router.ts";
import type { AuthState } from "../lib/security/auth.ts";
import { safeNextPath } from "../lib/security/request_guard.ts";
import { t } from "../lib/i18n/t.ts";
import { isLocale, REGION_TAGS, SOURCE_LOCALE } from "../lib/i18n/locales.ts";
import { messagesFor } from "../lib/i18n/catalog.ts";
import { IntlMessageFormat } from "intl-messageformat";
import { readPreferences } from "../lib/settings/settings.ts";
import { passkeysEnabled } from "../lib/security/passkeys.ts";
import { oidcEnabled, oidcProviderName } from "../lib/security/oidc.ts";
import { createBundleReader } from "../lib/server/islands.ts";
import type { PageScriptBundle } from "../lib/server/page_scripts.ts";

/** The built page scripts; /login loads only `passkeys` and only when passkeys exist. */
const readBundle = createBundleReader() as () => PageScriptBundle | undefined;

interface LoginData {
  next: string;
  /** A failed attempt's reason from the form post's redirect. */
  error: "invalid" | "rate" | null;
  botName: string;
  authOff: boolean;
  /** URL of the passkey page script, when a passkey can sign in here. */
  passkeyScript: string | null;
  /** The OpenID Connect provider's name, when sign-in through it is configured. */
  oidcProvider: string | null;
}

export const handler: Handlers<LoginData> = {
  async GET(_req, ctx) {
    const next = safeNextPath(ctx.url.searchParams.get("next"));
    const auth = ctx.state.auth as AuthState | undefined;
    const authOff = !auth?.enabled;
    if (!authOff && auth?.loggedIn) {
      return new Response(null, {
        status: 302,
        headers: { location: next, "cache-control": "no-store" },
      });
    }
    const lang = isLocale(ctx.state.locale) ? ctx.state.locale : SOURCE_LOCALE;
    // The handler runs outside the page render, so it formats with the page's locale directly.
    const say = (key: string) =>
      new IntlMessageFormat(messagesFor(lang)[key], lang).format() as string;
    const botName = (await readPreferences(ctx.app.db)).bot_name as string;
    ctx.state.documentTitle = `${botName} — ${say("login.signIn")}`;
    ctx.state.htmlLang = REGION_TAGS[lang];
    const code = ctx.url.searchParams.get("error");
    const error = code === "invalid" ? "invalid" : code === "rate" ? "rate" : null;
    const bundle = await passkeysEnabled(ctx.app.security) ? readBundle() : undefined;
    const script = bundle?.scripts?.passkeys;
    const passkeyScript = bundle && script ? bundle.base + script.file : null;
    const oidcProvider = await oidcEnabled(ctx.app.security)
      ? oidcProviderName(ctx.app.config)
      : null;
    return ctx.render({ next, error, botName, authOff, passkeyScript, oidcProvider }, {
      headers: { "cache-control": "no-store", "content-language": REGION_TAGS[lang] },
    });
  },
};

export default function Login({ data }: PageProps<LoginData>) {
  if (data.authOff) {
    return (
      <main class="login-shell">
        <link rel="stylesheet" href="/static/login.css" />
        <div class="login-card">
          <div class="login-brand" aria-hidden="true">☤</div>
          <h1 class="login-title">{data.botName}</h1>
          <p class="login-hint" id="login-auth-off">{t("login.authOff")}</p>
          <a class="login-submit" href={data.next}>{t("login.openConsole")}</a>
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
        // The words static/login.js and the passkey script show (they have no catalog).
        data-msg-invalid={t("login.invalid")}
        data-msg-failed={t("login.failedHttp", { status: "{status}" })}
        data-msg-unreachable={t("login.unreachable")}
        data-msg-passkey-cancelled={t("login.passkeyCancelled")}
      >
        <div class="login-brand" aria-hidden="true">☤</div>
        <h1 class="login-title">{data.botName}</h1>
        <p class="login-hint">{t("login.hint")}</p>
        <label class="login-label" for="login-password">{t("login.password")}</label>
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
          {data.error === "invalid"
            ? t("login.invalid")
            : data.error === "rate"
            ? t("login.rate")
            : ""}
        </p>
        <button class="login-submit" id="login-submit" type="submit">{t("login.signIn")}</button>
        {data.passkeyScript
          ? (
            <button
              class="login-alt"
              type="button"
              id="login-passkey"
              data-passkey-login
              data-next={data.next}
            >
              {t("login.passkey")}
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
              {t("login.withProvider", { provider: data.oidcProvider })}
            </a>
          )
          : null}
      </form>
      <script src="/static/login.js"></script>
      {data.passkeyScript ? <script type="module" src={data.passkeyScript}></script> : null}
    </main>
  );
}
