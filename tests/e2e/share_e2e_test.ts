// Sharing in a real browser, auth on: the owner shares a chat from its sidebar menu, an
// anonymous browser (no cookie) reads the snapshot, the Control Center lists the link and
// revokes it, and the anonymous reader then gets the 404 page. Also the installable app: the
// manifest is accepted by Chromium, the service worker takes control, and a reload while
// offline shows the offline page.
import { ok, strictEqual } from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, ensureIslandsBuilt, launchBrowser, withAppInBrowser } from "./browser.ts";
import { createTestApp, serveTestApp, type TestApp } from "../helpers.ts";
import { seedChat, toolCallMessage } from "./seed.ts";

const PASSWORD = "correct horse battery staple";

function seed(app: TestApp): Promise<string> {
  return seedChat(app, "Shared plan", [
    { role: "user", content: "What is the plan?" },
    toolCallMessage("c1", "terminal", JSON.stringify({ command: "cat notes" })),
    { role: "tool", tool_call_id: "c1", content: "HIDDEN_TOOL_OUTPUT" },
    { role: "assistant", content: "The plan has **three** steps." },
  ]);
}

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.fill("#login-password", PASSWORD);
  await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.click("#login-submit")]);
}

browserTest("share: the owner shares from the sidebar, an anonymous reader sees it", async () => {
  await withAppInBrowser({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } }, async (s) => {
    const { app, url, browser } = s;
    await seed(app);
    const page = await browser.newPage();
    await signIn(page, url);
    const row = page.locator(".session-row", {
      has: page.locator(".session-title", { hasText: "Shared plan" }),
    });
    await row.hover();
    await row.locator(".session-menu-btn").click();
    await page.locator("[data-menu-action='share']").click();
    const ask = page.locator("dialog[data-dialog='share-session']");
    await ask.waitFor();
    await browser.screenshot(page, "share-dialog");
    await ask.locator("[data-dialog-confirm]").click();
    const linkField = page.locator("dialog[data-dialog='share-link'] input[data-share-url]");
    await linkField.waitFor();
    const link = await linkField.inputValue();
    ok(link.startsWith(`${url}/share/`), link);
    await browser.screenshot(page, "share-link-created");
    await page.locator("dialog[data-dialog='share-link'] button[value='cancel']").click();

    // A reader with no cookie at all.
    const anon = await launchBrowser();
    try {
      const reader = await anon.newPage({ width: 800, height: 700 });
      const res = await reader.goto(link);
      strictEqual(res?.status(), 200);
      await reader.locator("text=What is the plan?").waitFor();
      strictEqual(await reader.locator(".prose strong").textContent(), "three");
      ok(!(await reader.content()).includes("HIDDEN_TOOL_OUTPUT"), "tool output left out");
      strictEqual(await reader.locator("script").count(), 0, "no scripts on the page");
      await anon.screenshot(reader, "share-anonymous-reader");
      // The console itself still asks the same browser to sign in.
      await reader.goto(`${url}/`);
      strictEqual(new URL(reader.url()).pathname, "/login");

      // The owner revokes it from the Control Center's Sharing tab.
      await page.locator('[data-action="control-center"]').click();
      await page.waitForSelector('[data-cc-dialog][role="dialog"]');
      await page.locator('[data-cc-tab="sharing"]').click();
      const share = page.locator("[data-cc-list=shares] [data-state=active]");
      strictEqual(await share.count(), 1);
      ok((await share.textContent())?.includes("Shared plan"));
      await browser.screenshot(page, "share-control-center");
      await share.locator("[data-cc-ask]").click();
      await share.locator("[data-cc-action='share-revoke']").click();
      await page.locator("[data-cc-list=shares] [data-state=revoked]").waitFor();

      const gone = await reader.goto(link);
      strictEqual(gone?.status(), 404);
      await reader.locator("text=This link is not available").waitFor();
      // The revoked link's 404 is the only failed load the reader saw.
      const unexpected = anon.errors.filter((e) => !e.includes("status of 404"));
      strictEqual(unexpected.length, 0, unexpected.join("\n"));
      strictEqual(anon.errors.length, 1, anon.errors.join("\n"));
    } finally {
      await anon.close();
    }
    browser.assertNoErrors();
  });
});

browserTest(
  "install: the manifest is valid and a reload offline shows the offline page",
  async () => {
    await ensureIslandsBuilt();
    const app = await createTestApp();
    const server = serveTestApp(app);
    const url = server.url;
    // This one test lets the worker run (launchBrowser blocks it by default).
    const browser = await launchBrowser({ serviceWorkers: "allow" });
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      // The layout script registers /sw.js after load; wait until it controls the page.
      const registered = await page.evaluate(() =>
        Promise.race([
          navigator.serviceWorker.ready.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 20_000)),
        ])
      );
      ok(registered, "the page registered /sw.js");
      const cdp = await browser.context.newCDPSession(page);
      const manifest = await cdp.send("Page.getAppManifest") as {
        url: string;
        errors: Array<{ message: string }>;
        data?: string;
      };
      ok(manifest.url.endsWith("/manifest.json"), manifest.url);
      strictEqual(manifest.errors.length, 0, JSON.stringify(manifest.errors));
      ok(manifest.data?.includes('"standalone"'));
      if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
        await page.reload(); // the first load is not controlled until the worker claims it
      }
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);
      const cached = await page.evaluate(async () => {
        const names = await caches.keys();
        const urls: string[] = [];
        for (const n of names) {
          for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
        }
        return urls;
      });
      ok(cached.includes("/static/style.css"), cached.join(", "));
      ok(cached.every((p) => p.startsWith("/static/")), `only static files: ${cached.join(", ")}`);

      await browser.context.setOffline(true);
      try {
        await page.reload().catch(() => {});
        await page.locator("#offline").waitFor();
        ok((await page.textContent("h1"))?.includes("The server is unreachable"));
        await browser.screenshot(page, "install-offline");
      } finally {
        await browser.context.setOffline(false);
      }
      // The offline answer is a 503 the console logs as a failed load, and while the browser is
      // offline the page's connection sign asks /health (lib/browser/connection_status.ts), which
      // the console logs as a disconnected load; nothing else failed.
      const unexpected = browser.errors.filter((e) =>
        !e.includes("status of 503") && !e.includes("net::ERR_INTERNET_DISCONNECTED")
      );
      strictEqual(unexpected.length, 0, unexpected.join("\n"));
    } finally {
      await browser.close();
      await server.shutdown();
      await app.close();
    }
  },
);
