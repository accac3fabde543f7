import type { AppModuleProps } from "../lib/file_router.ts";

/** The HTML document around every page. */
export default function App({ Component }: AppModuleProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <title>Hermes Console</title>
        <link rel="stylesheet" href="/static/style.css" />
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
