import type { AppModuleProps } from "../lib/server/file_router.ts";
import { currentDirection, currentLocale, t } from "../lib/i18n/t.ts";
import { fontSizeOf, skinOf } from "../lib/shared/appearance.ts";
import { type PagePaint, paintStyle } from "../lib/shared/page_preferences.ts";

/**
 * The HTML document around every page. `data-theme` on <html> is the `theme` setting (read
 * by routes/_middleware.ts): "dark", "light" (the parchment field) or "system", which
 * follows prefers-color-scheme in CSS, so the first frame has the right theme. `data-skin` and
 * `data-font-size` (static/skins.css; absent for the defaults) and `data-sidebar-hidden` (the
 * desktop sidebar hidden with Ctrl/Cmd+B) are painted from the first frame the same way. The CSRF token (auth on) is carried in a meta tag
 * for islands' writes (lib/browser/api_client.ts); a page may name itself in `state.title`. Island
 * scripts are added by the renderer, and only to pages that rendered an island.
 */
export default function App({ Component, state }: AppModuleProps) {
  const csrf = typeof state.csrfToken === "string" ? state.csrfToken : null;
  const theme = state.theme === "light" || state.theme === "system" ? state.theme : "dark";
  const skin = skinOf(state.skin);
  const fontSize = fontSizeOf(state.fontSize);
  // Layout preferences (lib/shared/page_preferences.ts), painted like the skin.
  const paint = state.pagePaint as PagePaint | undefined;
  // A page may name its whole title (`documentTitle`) and its `lang` tag (`htmlLang`, e.g. the
  // login page's region tags), else the title is `state.title · app` and lang the locale id.
  const title = typeof state.documentTitle === "string" && state.documentTitle
    ? state.documentTitle
    : typeof state.title === "string" && state.title
    ? `${state.title} · ${t("common.appName")}`
    : t("common.appName");
  return (
    <html
      lang={typeof state.htmlLang === "string" && state.htmlLang ? state.htmlLang : currentLocale()}
      dir={currentDirection()}
      data-theme={theme}
      data-skin={skin === "default" ? undefined : skin}
      data-font-size={fontSize === "default" ? undefined : fontSize}
      data-sidebar-hidden={state.sidebarHidden === true ? "" : undefined}
      data-hide-thinking={state.showThinking === false ? "" : undefined}
      {...paint?.attrs}
      {...state.transcriptDisplay as Record<string, string> | undefined}
      style={paint ? paintStyle(paint.vars) : undefined}
    >
      <head>
        <meta charset="utf-8" />
        <meta
          name="viewport"
          content="width=device-width, initial-scale=1, viewport-fit=cover, interactive-widget=resizes-content"
        />
        <meta name="color-scheme" content={theme === "system" ? "dark light" : theme} />
        {csrf ? <meta name="hermes-csrf-token" content={csrf} /> : null}
        <title>{title}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.json" />
        <link rel="apple-touch-icon" href="/static/icons/icon-192.png" />
        <meta name="theme-color" content="#0a0908" />
        <link rel="stylesheet" href="/static/style.css" />
        <link rel="stylesheet" href="/static/sidebar.css" />
        <link rel="stylesheet" href="/static/panel.css" />
        <link rel="stylesheet" href="/static/composer.css" />
        <link rel="stylesheet" href="/static/markdown.css" />
        <link rel="stylesheet" href="/static/transcript.css" />
        <link rel="stylesheet" href="/static/transcript_display.css" />
        <link rel="stylesheet" href="/static/control.css" />
        <link rel="stylesheet" href="/static/skins.css" />
        <link rel="stylesheet" href="/static/page_prefs.css" />
        <link rel="stylesheet" href="/static/a11y.css" />
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
