// The phone layout (390×844) in a real browser: the conversation fills the screen, the
// sidebar is a drawer (hamburger, scrim, Escape), the workspace panel a slide-over that does
// not change the desktop's remembered state, and the composer stays in view when an
// on-screen keyboard shrinks the viewport.
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";

const W = 390;
const H = 844;

/** The element's box is inside the viewport (the part a user can see). */
async function onScreen(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const vp = page.viewportSize()!;
  return !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 0.5 &&
    box.y + box.height <= vp.height + 0.5;
}

browserTest(
  "phone layout: drawer opens and closes, panel slides over, composer stays visible",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      await Deno.writeTextFile(`${app.workspace}/notes.md`, "# Notes\n");
      const page = await browser.newPage({ width: W, height: H });
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);

      // The conversation has the screen; the sidebar is off-canvas, the composer in view.
      const drawer = page.locator("#sidebar");
      strictEqual(await drawer.isVisible(), false, "the drawer starts closed");
      assert(await onScreen(page, ".composer"), "the composer is on screen");
      assert(await onScreen(page, ".topbar-drawer-btn"), "the hamburger is on screen");
      const transcript = (await page.locator(".transcript").boundingBox())!;
      strictEqual(Math.round(transcript.width), W, "the transcript takes the full width");
      await browser.screenshot(page, "phone-chat");

      // Hamburger opens the drawer over a scrim; tapping the scrim closes it.
      const burger = page.locator(".topbar-drawer-btn");
      await burger.click();
      await page.waitForFunction(() => {
        const r = document.querySelector("#sidebar")!.getBoundingClientRect();
        return r.left === 0;
      });
      assert(await drawer.isVisible());
      strictEqual(await burger.getAttribute("aria-expanded"), "true");
      assert(await onScreen(page, "#sidebar .session-row >> nth=0"));
      await browser.screenshot(page, "phone-drawer");
      await page.mouse.click(W - 12, H / 2); // the scrim, right of the drawer
      await drawer.waitFor({ state: "hidden" });
      strictEqual(await burger.getAttribute("aria-expanded"), "false");

      // Escape closes it too, and focus goes back to the hamburger.
      await burger.click();
      await drawer.waitFor({ state: "visible" });
      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "hidden" });
      assert(await burger.evaluate((b) => b === document.activeElement));

      // Picking a chat in the drawer opens it.
      await burger.click();
      await page.locator("#sidebar .session-row", { hasText: "Rename config keys" })
        .locator(".session-item").click();
      await page.waitForURL(/session=/);
      await waitForIslands(page);
      strictEqual(await drawer.isVisible(), false, "a new page starts with the drawer closed");

      // The workspace panel is a slide-over; it does not touch the desktop's cookie.
      await page.locator(".topbar [data-action='toggle-workspace']").click();
      const panel = page.locator("#workspace-panel");
      await page.locator("[data-path='notes.md']").waitFor();
      await page.waitForFunction(() => {
        const r = document.querySelector("#workspace-panel")!.getBoundingClientRect();
        return r.right <= innerWidth && r.left >= 0;
      });
      assert(await onScreen(page, "#workspace-panel .panel-head"));
      await browser.screenshot(page, "phone-panel");
      await panel.locator(".panel-head [data-action='toggle-workspace']").click();
      await panel.waitFor({ state: "hidden" });
      const cookies = await browser.context.cookies();
      assert(!cookies.some((c) => c.name === "hermes_panel" && c.value === "open"));

      // An on-screen keyboard: the visual viewport shrinks (resizes-content); the composer
      // is still fully visible and usable.
      await page.locator("#composer-input").focus();
      await page.setViewportSize({ width: W, height: 520 });
      await page.waitForFunction(() => {
        const r = document.querySelector(".composer")!.getBoundingClientRect();
        return r.bottom <= innerHeight;
      });
      assert(await onScreen(page, ".composer"), "the composer sits above the keyboard");
      assert(await onScreen(page, ".topbar"), "and the top bar is still there");
      await page.locator("#composer-input").fill("typed on a phone");
      strictEqual(await page.locator(".btn-send").isDisabled(), false);
      await browser.screenshot(page, "phone-keyboard");
      assertEquals(browser.errors, []);
    });
  },
);
