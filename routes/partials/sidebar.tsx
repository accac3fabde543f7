// GET /partials/sidebar?session=&project=&q=&archived= → the sidebar's changing part
// (components/Sidebar.tsx SidebarBody) as an HTML fragment, for lib/browser/pages/sidebar.ts to
// swap in after an action or a run starting/ending: the list refreshes without a reload and
// is rendered by the same code as the page.
import { renderToString } from "preact-render-to-string";
import type { Handlers } from "../../lib/server/file_router.ts";
import { loadSidebar, SidebarBody } from "../../components/Sidebar.tsx";

export const handler: Handlers = {
  GET(_req, { app, url }) {
    const params = url.searchParams;
    const props = loadSidebar(app, params, params.get("session"));
    return new Response(renderToString(<SidebarBody {...props} />), {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      },
    });
  },
};
