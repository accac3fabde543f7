// GET /share/<token>: the public, read-only snapshot of a shared conversation (no login, even
// with auth on: routes/_middleware.ts lets exactly this path through). A whole document with no
// scripts under a CSP that allows none; never indexed, never cached, never sends a Referer.
// Unknown, malformed, revoked and expired tokens all get the same 404 page.
import { renderInLocale } from "../../lib/i18n/render.ts";
import { isLocale, type Locale, SOURCE_LOCALE } from "../../lib/i18n/locales.ts";
import type { Handlers } from "../../lib/server/file_router.ts";
import { readSharedSnapshot } from "../../lib/sharing/shares.ts";
import { preloadRenderers } from "../../lib/markdown/render.ts";
import { SharedPage, ShareNotFound } from "../../components/share/SharedTranscript.tsx";

/** Nothing runs on this page: model output can only ever be inert markup and styles. */
const SHARE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function page(body: string, status: number, locale: Locale): Response {
  return new Response("<!DOCTYPE html>" + body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-language": locale,
      "content-security-policy": SHARE_CSP,
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
    const found = readSharedSnapshot(ctx.app.db, ctx.app.clock, ctx.params.token ?? "");
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
