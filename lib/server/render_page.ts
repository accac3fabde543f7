// Server-side page rendering: the page component inside the `_app.tsx` shell, rendered by
// the islands runtime to a complete HTML document. Invariant: a page that rendered no island
// carries no island script; a page with islands gets its preloads in <head> and exactly one
// JSON payload + one module entry at the end of <body> (no inline executable script: CSP).
// A page whose components asked for the page scripts (lib/server/page_scripts.ts: the app shell)
// also gets one module script per `lib/browser/pages/*.ts` module after the islands entry.
import { h } from "preact";
import type { PageRenderer } from "./file_router.ts";
import {
  createBundleReader,
  createIslandRegistry,
  type IslandBundle,
  islandTags,
  renderWithIslands,
} from "./islands.ts";
import type { Logger } from "../log.ts";
import { collectPageScripts, type PageScriptBundle, pageScriptTags } from "./page_scripts.ts";
import { withLocale } from "../i18n/t.ts";
import { catalogPayloadJson } from "../i18n/catalog.ts";
import { isLocale, type Locale, SOURCE_LOCALE } from "../i18n/locales.ts";

export interface PageRendererOptions {
  /** `manifest.islands` from routes.gen.ts: modules, or loaders imported at the first render. */
  islands: Record<string, Record<string, unknown> | (() => Promise<Record<string, unknown>>)>;
  /** Reads the built bundle manifest; defaults to static/_islands/manifest.json. */
  bundle?: () => IslandBundle | undefined;
  log?: Pick<Logger, "warn">;
}

/**
 * Insert `text` before `marker` in `html` (or append it when absent): the first `</head>`
 * (nothing rendered can precede the real one) and the last `</body>`.
 */
function insertBefore(html: string, marker: string, text: string): string {
  if (!text) return html;
  const at = marker === "</head>" ? html.indexOf(marker) : html.lastIndexOf(marker);
  return at < 0 ? html + text : html.slice(0, at) + text + html.slice(at);
}

/**
 * The page renderer the router calls for every page. Islands the bundle lacks (built before
 * they existed, or no build at all) still render on the server; the log says why they are
 * not interactive, once per island name.
 */
export function createPageRenderer(opts: PageRendererOptions): PageRenderer {
  // The islands (and the component trees they pull in) load with the first page, not at start.
  let registry: ReturnType<typeof createIslandRegistry> | undefined;
  const islandRegistry = async () =>
    registry ??= createIslandRegistry(
      Object.fromEntries(
        await Promise.all(
          Object.entries(opts.islands).map(async ([file, mod]) =>
            [file, typeof mod === "function" ? await mod() : mod] as const
          ),
        ),
      ),
    );
  const readBundle = opts.bundle ?? createBundleReader();
  const warned = new Set<string>();
  return async ({ page, app, props, init }) => {
    const registry = await islandRegistry();
    const Component = () => h(page, props);
    const root = app ? h(app, { Component, url: props.url, state: props.state }) : h(Component, {});
    // The page's locale (routes/_middleware.ts picks it): the render speaks it, and the page
    // ships its catalog, and only its, when anything on it runs in the browser.
    const state = props.state as Record<string, unknown> | undefined;
    const locale: Locale = isLocale(state?.locale) ? state.locale : SOURCE_LOCALE;
    const { result, wanted } = withLocale(
      locale,
      () => collectPageScripts(() => renderWithIslands(root, registry)),
    );
    const { html, islands } = result;
    let doc = "<!DOCTYPE html>" + html;
    let head = "";
    let body = "";
    if (islands.length > 0) {
      const tags = islandTags(islands, readBundle());
      for (const name of tags.missing) {
        if (warned.has(name)) continue;
        warned.add(name);
        opts.log?.warn(`Island "${name}" is not in the built bundle; run \`deno task build\``);
      }
      head += tags.head;
      body += tags.body;
    }
    if (wanted) {
      const bundle = readBundle() as PageScriptBundle | undefined;
      const preloaded = new Set(
        [...head.matchAll(/href="([^"]+)"/g)].map((m) => m[1].slice(bundle?.base.length ?? 0)),
      );
      const tags = pageScriptTags(bundle, preloaded);
      head += tags.head;
      body += tags.body;
    }
    // The catalog goes with the code that reads it: only when a script was added.
    if (body.includes("<script")) {
      const keys = (readBundle() as { i18nKeys?: string[] } | undefined)?.i18nKeys;
      body =
        `<script type="application/json" id="hermes-i18n">${
          catalogPayloadJson(locale, keys)
        }</script>` + body;
    }
    doc = insertBefore(insertBefore(doc, "</head>", head), "</body>", body);
    return new Response(doc, {
      ...init,
      headers: { "content-type": "text/html; charset=utf-8", ...(init?.headers ?? {}) },
    });
  };
}
