// Themes in a real browser: "system" follows prefers-color-scheme from the first frame (CSS
// only), the top bar toggle switches and saves the theme (the server paints it on reload),
// and `hermes:theme-change` (the Control Center's way in) applies and saves any of the three.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";

const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const DARK = "rgb(10, 9, 8)"; // --color-neutral
const LIGHT = "rgb(234, 224, 213)"; // --color-parchment

browserTest(
  "theme: system follows the OS, the toggle switches and persists, events apply",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const page = await browser.newPage();
      await page.emulateMedia({ colorScheme: "dark" });
      const res = await page.goto(`${url}/`);
      await waitForIslands(page);
      // The stored default is "system": the server says so and CSS resolves it.
      strictEqual((await res!.text()).includes('data-theme="system"'), true);
      strictEqual(await background(page), DARK);
      await page.emulateMedia({ colorScheme: "light" });
      strictEqual(await background(page), LIGHT, "follows the OS live, no script needed");
      await browser.screenshot(page, "theme-system-light");

      // The toggle goes to the opposite of what is shown, and saves it.
      const toggle = page.locator("[data-action='toggle-theme']");
      strictEqual(await toggle.getAttribute("aria-label"), "Switch to dark theme");
      await toggle.click();
      strictEqual(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
      strictEqual(await background(page), DARK);
      await page.waitForFunction(async () =>
        (await (await fetch("/api/settings")).json()).theme === "dark"
      );
      strictEqual(await toggle.getAttribute("aria-label"), "Switch to light theme");

      // The server paints the saved theme on the next load, whatever the OS prefers.
      const again = await page.reload();
      strictEqual((await again!.text()).includes('data-theme="dark"'), true);
      strictEqual(await background(page), DARK);
      await browser.screenshot(page, "theme-dark");

      // The Control Center's way in: an event with any of the three values.
      await page.evaluate(() =>
        dispatchEvent(new CustomEvent("hermes:theme-change", { detail: { theme: "light" } }))
      );
      strictEqual(await background(page), LIGHT);
      await page.waitForFunction(async () =>
        (await (await fetch("/api/settings")).json()).theme === "light"
      );
      await page.evaluate(() =>
        dispatchEvent(
          new CustomEvent("hermes:theme-change", { detail: { theme: "system", persist: false } }),
        )
      );
      strictEqual(await page.evaluate(() => document.documentElement.dataset.theme), "system");
      const settings = await app.call<{ theme: string }>("GET", "/api/settings");
      strictEqual(settings.body.theme, "light", "persist: false leaves the setting alone");
      await browser.screenshot(page, "theme-light");
      assertEquals(browser.errors, []);
    });
  },
);
