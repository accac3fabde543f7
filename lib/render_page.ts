// Server-side page rendering with preact-render-to-string: the page component inside the
// `_app.tsx` shell, as a complete HTML document. The islands runtime hooks in here.
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import type { PageRenderer } from "./file_router.ts";

/** Render a page (wrapped by `_app` when present) to an HTML Response. */
export const renderPage: PageRenderer = ({ page, app, props, init }) => {
  const Component = () => h(page, props);
  const body = app
    ? renderToString(h(app, { Component, url: props.url, state: props.state }))
    : renderToString(h(Component, {}));
  return Promise.resolve(
    new Response("<!DOCTYPE html>" + body, {
      ...init,
      headers: { "content-type": "text/html; charset=utf-8", ...(init?.headers ?? {}) },
    }),
  );
};
