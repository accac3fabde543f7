// A real browser's CSP violation reaches the server log: the page's policy names
// /api/csp-report as its report-uri, and Chromium files the report on its own (no page token,
// no login: the login page of a console with auth on).
import { ok } from "node:assert/strict";
import { createTestApp, serveTestApp } from "../helpers.ts";
import { browserTest, launchBrowser } from "./browser.ts";

const PASSWORD = "correct horse battery staple";

browserTest("a CSP violation on a page is reported to /api/csp-report and logged", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  const server = serveTestApp(app);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const reported = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/csp-report");
    await page.goto(`${server.url}/login`);
    // An inline script is exactly what the policy forbids.
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__csp_probe = 1";
      document.body.append(s);
    });
    const res = await reported;
    ok(res.status() === 204, `the report was taken: ${res.status()}`);
    ok(
      await page.evaluate(() => !("__csp_probe" in window)),
      "the inline script did not run",
    );
    for (let i = 0; i < 50 && !app.logs.some((l) => l.includes("CSP violation")); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const line = app.logs.find((l) => l.includes("CSP violation")) ?? "";
    ok(line.includes("script-src"), app.logs.join("\n"));
    // The refused inline script is the only error the page showed.
    const unexpected = browser.errors.filter((e) => !/Content Security Policy/.test(e));
    ok(unexpected.length === 0, unexpected.join("\n"));
  } finally {
    await browser.close();
    await server.shutdown();
    await app.close();
  }
});
