// Server renders outside the page renderer (HTML partials, the share page) speak the request's
// locale too: the one routes/_middleware.ts put in `ctx.state.locale`.
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { withLocale } from "./t.ts";
import { isLocale, SOURCE_LOCALE } from "./locales.ts";

/** `renderToString(vnode)` with `locale` (ctx.state.locale; English when unset) active. */
// deno-lint-ignore no-explicit-any
export function renderInLocale(locale: unknown, vnode: VNode<any>): string {
  return withLocale(isLocale(locale) ? locale : SOURCE_LOCALE, () => renderToString(vnode));
}
