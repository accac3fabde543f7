// GET /partials/control-center?session=&tab= → the Control Center dialog (components/
// ControlCenter.tsx) as an HTML fragment, with fresh data, for lib/browser/pages/control_center.ts
// to open. With `section=<tab>` only that panel's content, to swap in after a change
// (`mcp=<name>` / `skill=<name>` / `task=<id>` / `profile=<name>` / `prompt=<name>` open that
// form; an empty value opens a new one). It speaks the page's language (routes/_middleware.ts sets
// `state.locale` for /partials/ as for pages).
import { renderInLocale } from "../../lib/i18n/render.ts";
import type { Handlers } from "../../lib/server/file_router.ts";
import { ValidationError } from "../../lib/errors.ts";
import {
  CONTROL_TABS,
  ControlCenter,
  type ControlCenterQuery,
  ControlPanel,
  isControlTab,
  loadControlCenter,
  loadControlPanel,
} from "../../components/ControlCenter.tsx";

const html = (body: string) =>
  new Response(body, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });

export const handler: Handlers = {
  async GET(_req, { app, url, state }) {
    const locale = state.locale;
    const p = url.searchParams;
    const q: ControlCenterQuery = {
      sessionId: p.get("session") || null,
      mcpEdit: p.get("mcp"),
      skillEdit: p.get("skill"),
      taskEdit: p.get("task"),
      taskHistory: p.get("history"),
      logLevel: p.get("log_level"),
      logQuery: p.get("log_q"),
      profileEdit: p.get("profile"),
      promptEdit: p.get("prompt"),
    };
    const section = p.get("section");
    if (section !== null) {
      if (!isControlTab(section)) {
        throw new ValidationError(
          `Invalid parameter "section": expected one of ${
            CONTROL_TABS.map((t) => t.id).join(", ")
          }`,
          "section",
        );
      }
      const data = await loadControlPanel(app, section, q);
      return html(renderInLocale(locale, <ControlPanel tab={section} data={data} />));
    }
    const tab = p.get("tab");
    const data = await loadControlCenter(app, q);
    return html(
      renderInLocale(
        locale,
        <ControlCenter data={data} tab={isControlTab(tab) ? tab : "conversation"} />,
      ),
    );
  },
};
