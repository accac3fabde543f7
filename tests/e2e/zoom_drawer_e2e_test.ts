// 200% zoom on a 1440×900 window (720×450 CSS px at device scale 2, as zoom_e2e_test.ts does
// zoom): the sidebar no longer takes 38% of the width but is a drawer over the conversation.
// The top bar's toggle opens it with focus inside; Escape and a click outside close it and give
// focus back to the toggle. At 1280 px it stays docked. Screenshots: /tmp/shots_phone/.
import { ok as assert, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, gotoHydrated, type Page } from "./browser.ts";
import { createTestApp, serveTestApp } from "../helpers.ts";
import { seedApp } from "./seed.ts";
import { launchZoomBrowser } from "./zoom.ts";

const SHOTS = "/tmp/shots_phone";

/** The sidebar's box, and whether it is drawn at all. */
function sidebarBox(page: Page) {
  return page.locator("#sidebar").evaluate((el) => {
    const r = el.getBoundingClientRect();
    return {
      left: r.left,
      right: r.right,
      width: r.width,
      shown: getComputedStyle(el).visibility === "visible" && r.right > 0 && r.left < innerWidth,
    };
  });
}

const focusInSidebar = (page: Page) =>
  page.evaluate(() => !!document.activeElement?.closest("#sidebar"));

browserTest(
  "200% zoom: the sidebar is a drawer (toggle, Escape, click outside, focus)",
  async () => {
    const browser = await launchZoomBrowser(SHOTS);
    const app = await createTestApp();
    const server = serveTestApp(app);
    try {
      const seeded = await seedApp(app);
      for (const theme of ["light", "dark"] as const) {
        await app.call("POST", "/api/settings", { theme });
        const page = await browser.newPage({ width: 720, height: 450 });
        await gotoHydrated(page, `${server.url}/?session=${seeded.withTranscript}`);
        strictEqual(await page.evaluate(() => devicePixelRatio), 2);

        // The conversation has the whole width; the sidebar waits off screen.
        strictEqual((await sidebarBox(page)).shown, false, "no docked sidebar at 720 px");
        const transcript = (await page.locator(".transcript").boundingBox())!;
        strictEqual(Math.round(transcript.width), 720, "the transcript takes the full width");
        const toggle = page.locator(".topbar-drawer-btn");
        assert(await toggle.isVisible(), "the top bar offers the drawer");
        strictEqual(await toggle.getAttribute("aria-expanded"), "false");
        await page.screenshot({ path: join(SHOTS, `zoom200-closed-${theme}.png`) });

        // The toggle opens it over the content, focus inside.
        await toggle.click();
        await page.waitForFunction(() =>
          document.querySelector("#sidebar")!.getBoundingClientRect().left === 0
        );
        const open = await sidebarBox(page);
        assert(open.shown && open.width < 720 * 0.5, `a drawer, not a column: ${open.width}px`);
        strictEqual(await toggle.getAttribute("aria-expanded"), "true");
        assert(await focusInSidebar(page), "focus moves into the drawer");
        assert(
          await page.evaluate(() => (document.querySelector(".conversation") as HTMLElement).inert),
          "the page behind is out of reach",
        );
        await page.screenshot({ path: join(SHOTS, `zoom200-drawer-${theme}.png`) });

        // Escape closes it and gives focus back to the toggle.
        await page.keyboard.press("Escape");
        await page.locator("#sidebar").waitFor({ state: "hidden" });
        assert(await toggle.evaluate((b) => b === document.activeElement), "focus on the toggle");

        // A click outside (on the scrim, right of the drawer) closes it too.
        await toggle.click();
        await page.locator("#sidebar").waitFor({ state: "visible" });
        await page.mouse.click(700, 300);
        await page.locator("#sidebar").waitFor({ state: "hidden" });
        strictEqual(await toggle.getAttribute("aria-expanded"), "false");
        await page.close();
      }

      // A wide window keeps the docked sidebar and no drawer toggle.
      const wide = await browser.newPage({ width: 1280, height: 800 });
      await gotoHydrated(wide, `${server.url}/?session=${seeded.withTranscript}`);
      const docked = await sidebarBox(wide);
      assert(docked.shown && docked.left === 0, "docked at 1280 px");
      strictEqual(await wide.locator(".topbar-drawer-btn").isVisible(), false);
      browser.assertNoErrors();
    } finally {
      await browser.close();
      await server.shutdown();
      await app.close();
    }
  },
);
