// POST /api/csp-report: where browsers send Content-Security-Policy violations (the pages' CSP
// names it as `report-uri`, routes/_middleware.ts). Public and exempt from the page token, as
// the original: a browser sends the report on its own, with neither. The body is bounded
// (64 KiB, a 413 past it) and only its known fields reach the log; past 100 reports a minute
// from one client the rest are dropped. Always 204, as browsers expect.
import type { Handlers } from "../../lib/server/file_router.ts";
import { readBodyBytes } from "../../lib/server/http.ts";
import {
  hitBrowserReportLimit,
  logCspReport,
  MAX_CSP_REPORT_BYTES,
} from "../../lib/server/browser_reports.ts";

export const handler: Handlers = {
  async POST(req, { app, remoteAddr }) {
    const bytes = await readBodyBytes(req, MAX_CSP_REPORT_BYTES);
    if ((await hitBrowserReportLimit(app, "csp", remoteAddr)).ok) {
      logCspReport(app.log, remoteAddr, new TextDecoder().decode(bytes));
    }
    return new Response(null, { status: 204 });
  },
};
