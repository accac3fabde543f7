// GET /partials/sidebar?session=&project=&q=&archived= → the sidebar's changing part
// (components/Sidebar.tsx SidebarBody) as an HTML fragment, for lib/browser/pages/sidebar.ts to
// swap in after an action or a run starting/ending: the list refreshes without a reload and
// is rendered by the same code as the page. With `cursor`, only the next page of rows
// (SidebarPage), which the script appends as the user scrolls; `tz_offset` or the `hermes_tz`
// cookie give the viewer's zone for the Today/Yesterday groups.
import { renderInLocale } from "../../lib/i18n/render.ts";
import type { Handlers } from "../../lib/server/file_router.ts";
import { loadSidebar, SidebarBody, SidebarPage } from "../../components/Sidebar.tsx";

export const handler: Handlers = {
  async GET(req, { app, url, state }) {
    const params = url.searchParams;
    const props = await loadSidebar(app, params, params.get("session"), req.headers.get("cookie"));
    const html = params.get("cursor")
      ? renderInLocale(state.locale, <SidebarPage {...props} />)
      : renderInLocale(state.locale, <SidebarBody {...props} />);
    return new Response(html, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      },
    });
  },
};
