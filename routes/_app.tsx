import type { AppModuleProps } from "../lib/file_router.ts";

/**
 * The HTML document around every page. Dark is the default theme; `data-theme="light"` on
 * <html> switches to the parchment field. The CSRF token (auth on) is carried in a meta tag
 * for islands' writes (lib/api_client.ts); a page may name itself in `state.title`. Island
 * scripts are added by the renderer, and only to pages that rendered an island.
 */
export default function App({ Component, state }: AppModuleProps) {
  const csrf = typeof state.csrfToken === "string" ? state.csrfToken : null;
  const theme = state.theme === "light" ? "light" : "dark";
  const title = typeof state.title === "string" && state.title
    ? `${state.title} · Hermes Console`
    : "Hermes Console";
  return (
    <html lang="en" data-theme={theme}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content={theme === "light" ? "light" : "dark"} />
        {csrf ? <meta name="hermes-csrf-token" content={csrf} /> : null}
        <title>{title}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/static/style.css" />
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
