// Password login in a real browser: a protected page sends the browser to /login, a wrong
// password is reported in place, the right one lands on the page it asked for, and the page's
// CSRF token lets its writes through while a write without it is refused.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp, serveTestApp } from "../helpers.ts";
import { browserTest, launchBrowser } from "./browser.ts";

const PASSWORD = "correct horse battery staple";

browserTest(
  "login page: redirect, wrong password in place, then the page asked for with a CSRF token",
  async () => {
    const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
    const server = serveTestApp(app);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ width: 1024, height: 700 });
      await page.goto(`${server.url}/?from=test`);
      strictEqual(new URL(page.url()).pathname, "/login");
      strictEqual(new URL(page.url()).searchParams.get("next"), "/?from=test");
      await browser.screenshot(page, "login-empty");

      await page.fill("#login-password", "not the password");
      await page.click("#login-submit");
      await page.waitForFunction(() => document.getElementById("login-error")?.textContent !== "");
      ok((await page.textContent("#login-error"))?.includes("not right"));
      strictEqual(new URL(page.url()).pathname, "/login");
      await browser.screenshot(page, "login-wrong-password");

      await page.fill("#login-password", PASSWORD);
      await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.click("#login-submit")]);
      strictEqual(new URL(page.url()).search, "?from=test");
      const token = await page.getAttribute('meta[name="hermes-csrf-token"]', "content");
      ok(token && token.length >= 40, "the page carries the CSRF token");

      const statuses = await page.evaluate(async (csrf) => {
        const post = (headers: Record<string, string>) =>
          fetch("/api/session/new", {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: "{}",
          }).then((r) => r.status);
        return [await post({ "x-hermes-csrf-token": csrf! }), await post({})];
      }, token);
      strictEqual(statuses[0], 200, "a write with the token goes through");
      strictEqual(statuses[1], 403, "a write without it is refused");

      // The wrong password (401) and the refused write (403) are the only failed loads.
      const unexpected = browser.errors.filter((e) => !/status of (401|403)/.test(e));
      strictEqual(unexpected.length, 0, unexpected.join("\n"));
    } finally {
      await browser.close();
      await server.shutdown();
      await app.close();
    }
  },
);
