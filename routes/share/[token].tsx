// GET /share/<token>: the public, read-only snapshot of a shared conversation (no login, even
// with auth on: routes/_middleware.ts lets exactly this path through). A whole document with no
// scripts under a CSP that allows none — except a snapshot holding a mermaid diagram, whose page
// loads exactly one script of ours (lib/browser/share_page.ts: it draws the diagrams as inert
// images, as the console does) and allows scripts from this origin only. Never indexed, never
// cached, never sends a Referer. Unknown, malformed, revoked and expired tokens all get the same
// 404 page.
import { renderInLocale } from "../../lib/i18n/render.ts";
import { isLocale, type Locale, SOURCE_LOCALE } from "../../lib/i18n/locales.ts";
import { catalogPayloadJson } from "../../lib/i18n/catalog.ts";
import type { Handlers } from "../../lib/server/file_router.ts";
import { createBundleReader } from "../../lib/server/islands.ts";
import type { PageScriptBundle } from "../../lib/server/page_scripts.ts";
import { readSharedSnapshot } from "../../lib/sharing/shares.ts";
import { preloadRenderers } from "../../lib/markdown/render.ts";
import { SharedPage, ShareNotFound } from "../../components/share/SharedTranscript.tsx";

/**
 * Model output can only ever be inert markup and styles: no script at all, or (`scripts`, a page
 * with diagrams) only this origin's bundles, never inline.
 */
const shareCsp = (scripts: boolean) =>
  [
    "default-src 'none'",
    scripts ? "script-src 'self'" : "script-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

const readBundle = createBundleReader() as () => PageScriptBundle | undefined;

/** What lib/browser/mermaid_watch.ts and mermaid_render.ts say (the page ships only these). */
const DIAGRAM_KEYS = [
  "transcript.diagram",
  "transcript.diagramFailed",
  "transcript.diagramPending",
];

/** Only the markdown renderer writes this attribute unescaped: a fence labelled mermaid. */
const MERMAID_BLOCK = 'class="hljs language-mermaid"';

/**
 * The tags that draw the page's diagrams (its words, then the script), or "" when it has none
 * or nothing was built.
 */
function diagramTags(html: string, locale: Locale): string {
  const bundle = html.includes(MERMAID_BLOCK) ? readBundle() : undefined;
  const chunk = bundle?.standalone?.share;
  if (!bundle || !chunk) return "";
  const src = (bundle.base + chunk.file).replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return `<script type="application/json" id="hermes-i18n">${
    catalogPayloadJson(locale, DIAGRAM_KEYS)
  }</script><script type="module" src="${src}"></script>`;
}

function page(body: string, status: number, locale: Locale): Response {
  const tags = status === 200 ? diagramTags(body, locale) : "";
  const at = body.lastIndexOf("</body>");
  const html = tags && at >= 0 ? body.slice(0, at) + tags + body.slice(at) : body;
  return new Response("<!DOCTYPE html>" + html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-language": locale,
      "content-security-policy": shareCsp(html !== body),
      "x-robots-tag": "noindex, nofollow",
      "referrer-policy": "no-referrer",
      // A revoked link must stop working at once, for caches too.
      "cache-control": "no-store",
    },
  });
}

export const handler: Handlers = {
  async GET(_req, ctx) {
    const theme = typeof ctx.state.theme === "string" ? ctx.state.theme : "dark";
    // The reader's language (routes/_middleware.ts): the page, its <html lang/dir> and dates.
    const locale = isLocale(ctx.state.locale) ? ctx.state.locale : SOURCE_LOCALE;
    const found = await readSharedSnapshot(ctx.app.db, ctx.app.clock, ctx.params.token ?? "");
    if (!found) return page(renderInLocale(locale, <ShareNotFound theme={theme} />), 404, locale);
    await preloadRenderers(); // final math and code highlighting, as the console paints them
    return page(
      renderInLocale(
        locale,
        <SharedPage snapshot={found.snapshot} createdAt={found.share.created_at} theme={theme} />,
      ),
      200,
      locale,
    );
  },
};
