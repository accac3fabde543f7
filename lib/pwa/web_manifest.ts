// The installable app's web manifest (`/manifest.json`): name, icons and colours. Invariants:
// the colours are the DESIGN.md tokens as static/style.css declares them (read from the file,
// so the two never drift), `start_url` is "/" and the app opens standalone.
import { appUrl } from "../server/app_paths.ts";

export interface WebManifest {
  name: string;
  short_name: string;
  description: string;
  id: string;
  start_url: string;
  scope: string;
  display: "standalone";
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
}

/** Used only if static/style.css cannot be read (the tokens of DESIGN.md). */
const FALLBACK = { neutral: "#0a0908" };

/** `--color-<name>: #xxxxxx;` from the stylesheet's token block. */
export function cssToken(css: string, name: string): string | null {
  const m = css.match(new RegExp(`--color-${name}:\\s*(#[0-9a-fA-F]{3,8})\\s*;`));
  return m ? m[1].toLowerCase() : null;
}

let cachedCss: string | null = null;
function styleCss(): string {
  if (cachedCss === null) {
    try {
      cachedCss = Deno.readTextFileSync(appUrl("static/style.css"));
    } catch {
      cachedCss = "";
    }
  }
  return cachedCss;
}

/** The manifest; `botName` (settings `bot_name`) names the app when the user changed it. */
export function webManifest(botName = "Hermes"): WebManifest {
  const css = styleCss();
  const neutral = cssToken(css, "neutral") ?? FALLBACK.neutral;
  const custom = botName.trim() !== "" && botName !== "Hermes";
  return {
    name: custom ? botName : "Hermes Console",
    // Home screens show about 12 characters under the icon.
    short_name: custom && botName.length <= 12 ? botName : "Hermes",
    description: "A self-hosted console for a tool-using agent",
    id: "/",
    start_url: "/",
    scope: "/",
    display: "standalone",
    // The app's field (dark theme): the title bar and splash blend into the page.
    theme_color: neutral,
    background_color: neutral,
    icons: [
      { src: "/static/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
      { src: "/static/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/static/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      {
        src: "/static/icons/icon-maskable-512.png",
        sizes: "512x512",
        type: "image/png",
        purpose: "maskable",
      },
    ],
  };
}
