// GET /api/insights?days=N | start=&end= → usage analytics for one window (seed §4.12).
// The window rules live in lib/insights/insights_window.ts; the aggregation in lib/insights/insights.ts.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { computeInsights } from "../../lib/insights/insights.ts";
import { resolveInsightsWindow, serverCalendar } from "../../lib/insights/insights_window.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const q = url.searchParams;
    const cal = serverCalendar(app.config.env.TZ);
    const window = resolveInsightsWindow(
      { days: q.get("days"), start: q.get("start"), end: q.get("end") },
      app.clock(),
      cal,
    );
    return json(await computeInsights(app.db, window, cal));
  },
};
