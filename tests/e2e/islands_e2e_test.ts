// The islands runtime in a real browser against the real app on a loopback port: the
// Composer hydrates and reacts, a page without islands loads no island JavaScript, and no
// page logs a console error. Screenshots of the key states go to the run's temp dir.
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";

/** Island JS requested by `page` (the bundle lives under /static/_islands/). */
function trackIslandRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith("/static/_islands/")) seen.push(url.pathname);
  });
  return seen;
}

browserTest("Composer hydrates on / and sends the first message of a new chat", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const page = await browser.newPage();
    const islandJs = trackIslandRequests(page);
    await page.goto(`${url}/`);
    await waitForIslands(page);
    assert(islandJs.some((p) => /\/boot-[A-Z0-9]{8}\.js$/.test(p)), "the entry was loaded");
    assert(islandJs.some((p) => /\/Composer-[A-Z0-9]{8}\.js$/.test(p)), "the island chunk too");
    await browser.screenshot(page, "shell-empty");

    const send = page.locator(".btn-send");
    const input = page.locator("#composer-input");
    strictEqual(await send.isDisabled(), true, "nothing to send yet");
    const oneLine = (await input.boundingBox())!.height;
    await input.fill("Summarise the repository layout.\nThen list the test folders.\nBriefly.");
    strictEqual(await send.isDisabled(), false, "typing enables Send (the island is live)");
    assert((await input.boundingBox())!.height > oneLine, "the textarea grows with its text");
    await browser.screenshot(page, "composer-draft");

    // The run itself belongs to the chat engine; answer /api/chat/start here so this test
    // exercises the island's behaviour, not the provider.
    const starts: unknown[] = [];
    await page.route("**/api/chat/start", async (route) => {
      const body = route.request().postDataJSON();
      starts.push(body);
      await route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({
          stream_id: "f".repeat(32),
          session_id: body.session_id,
          turn_id: "t1",
          title: "Untitled",
        }),
      });
    });
    await send.click();
    await page.waitForURL(/\/\?session=[0-9a-f]{12}$/);
    strictEqual(starts.length, 1);
    const sid = new URL(page.url()).searchParams.get("session")!;
    assertEquals(starts[0], {
      session_id: sid,
      message: "Summarise the repository layout.\nThen list the test folders.\nBriefly.",
    });
    const created = await app.call<{ session: { session_id: string } }>(
      "GET",
      `/api/session?session_id=${sid}`,
    );
    strictEqual(created.status, 200, "the Composer created the session through the real API");
    await waitForIslands(page);
    browser.assertNoErrors();
  });
});

browserTest("Composer reports a failed send in place and keeps the draft", async () => {
  await withAppInBrowser({}, async ({ url, browser }) => {
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    await waitForIslands(page);
    await page.route("**/api/session/new", (route) =>
      route.fulfill({
        status: 409,
        contentType: "application/json",
        body: JSON.stringify({ error: "Workspace is busy" }),
      }));
    await page.locator("#composer-input").fill("hello");
    await page.keyboard.press("Enter");
    const alert = page.locator(".composer-error");
    await alert.waitFor();
    strictEqual(await alert.textContent(), "Workspace is busy");
    strictEqual(await page.locator("#composer-input").inputValue(), "hello");
    strictEqual(await page.locator(".btn-send").isDisabled(), false);
    await browser.screenshot(page, "composer-error");
    // The 409 the route answered is logged by Chromium as a failed resource load.
    const unexpected = browser.errors.filter((e) => !e.includes("409"));
    assertEquals(unexpected, []);
  });
});

browserTest("a page without islands loads no island JavaScript (the login page)", async () => {
  await withAppInBrowser(
    { env: { HERMES_WEBUI_PASSWORD: "correct horse battery" } },
    async ({ url, browser }) => {
      const page = await browser.newPage();
      const islandJs = trackIslandRequests(page);
      const res = await page.goto(`${url}/login`);
      strictEqual(res?.status(), 200);
      await page.waitForLoadState("networkidle");
      assertEquals(islandJs, []);
      strictEqual(await page.locator("#__hermes_islands").count(), 0);
      strictEqual(await page.locator('script[src^="/static/_islands/"]').count(), 0);
      strictEqual(await page.locator('link[href^="/static/_islands/"]').count(), 0);
      browser.assertNoErrors();
    },
  );
});

browserTest(
  "the shell with sessions and projects renders without errors in both themes",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app);
      const page = await browser.newPage();
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      strictEqual(
        await page.locator(".session-item[aria-current=page] .session-title").textContent(),
        "Fix flaky upload test",
      );
      await browser.screenshot(page, "shell-seeded-dark");
      // The Activity disclosure is an island: it opens, and stays open across a reload.
      strictEqual(await page.locator("details.activity[open]").count(), 0, "collapsed at first");
      await page.locator("details.activity > summary").click();
      await page.waitForSelector("details.activity[open]");
      strictEqual(await page.locator("details.activity[open] .tool-card").count(), 3);
      assertEquals(
        await page.evaluate(() => ({ ...localStorage })),
        { [`hermes:activity:${seeded.withTranscript}:i0`]: "open" },
        "remembered per chat and turn",
      );
      await page.reload();
      await waitForIslands(page);
      await page.waitForSelector("details.activity[open]");
      // ...and closes for good too.
      await page.locator("details.activity > summary").click();
      await page.waitForSelector("details.activity:not([open])");
      const stored = await page.evaluate(() =>
        Object.keys(localStorage).filter((k) => k.startsWith("hermes:activity:"))
      );
      assertEquals(stored, [], "closing forgets the turn");
      await page.reload();
      await waitForIslands(page);
      strictEqual(await page.locator("details.activity[open]").count(), 0);
      await page.locator("details.activity > summary").click();
      await page.waitForSelector("details.activity[open]");
      await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
      await browser.screenshot(page, "shell-seeded-light");

      // A project chip filters the list with a plain link (no JavaScript involved).
      await page.locator(`a[data-project-id="${seeded.projects.docs}"]`).click();
      await page.waitForURL(new RegExp(`project=${seeded.projects.docs}`));
      assertEquals(await page.locator(".session-title").allTextContents(), [
        "Draft the migration guide",
        "Changelog wording",
      ]);
      await browser.screenshot(page, "shell-project-filter");
      browser.assertNoErrors();
    });
  },
);
