// The original's skins in Chromium: Appearance › Display offers every skin of
// lib/shared/appearance.ts (ours and the original's by its names), and choosing one of the
// original's repaints the page at once: the field, the panels and the accent take its palette,
// in the dark and the light theme, and the choice is saved and painted again after a reload.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { SKINS } from "../../lib/shared/appearance.ts";
import { browserTest, type Page } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

/** A computed colour on <html> or the body, as the browser resolves it. */
const computed = (page: Page, prop: string) =>
  page.evaluate((p) => {
    if (p.startsWith("--")) {
      const probe = document.createElement("span");
      probe.style.color = `var(${p})`;
      document.body.append(probe);
      const value = getComputedStyle(probe).color;
      probe.remove();
      return value;
    }
    return getComputedStyle(document.body).getPropertyValue(p);
  }, prop);

browserTest("every skin is offered, and Poseidon repaints the page at once", async () => {
  const f = await transcriptFixture({ width: 1280, height: 800 });
  const { page, h } = f;
  try {
    await h.call("POST", "/api/settings", { theme: "dark" });
    await f.open();
    strictEqual(await computed(page, "background-color"), "rgb(10, 9, 8)");

    await page.keyboard.press("Control+,");
    await page.locator('[data-cc-tab="appearance"]').click();
    const offered: string[] = await page.locator("[data-skin-option]").evaluateAll((els) =>
      els.map((el) => el.getAttribute("data-skin-option") ?? "")
    );
    deepStrictEqual(offered, [...SKINS] as string[]);
    for (
      const name of ["ares", "mono", "poseidon", "sisyphus", "charizard", "catppuccin", "nous"]
    ) {
      ok(offered.includes(name), `the original's "${name}" skin is offered`);
    }
    strictEqual(
      await page.locator('[data-skin-option="poseidon"] .cc-choice-label').textContent(),
      "Poseidon",
    );

    await page.locator('[data-skin-option="poseidon"]').click();
    strictEqual(
      await page.evaluate(() => document.documentElement.getAttribute("data-skin")),
      "poseidon",
    );
    strictEqual(await computed(page, "background-color"), "rgb(6, 17, 25)", "deep water");
    strictEqual(await computed(page, "--accent"), "rgb(108, 196, 239)", "sea blue accent");
    await page.locator('[data-cc-status="display"]', { hasText: "Saved." }).waitFor();
    await f.browser.screenshot(page, "skin-poseidon-dark");

    // The light theme under the same skin: its own paper and a deep sea-blue accent.
    await page.locator('[data-theme-option="light"]').click();
    strictEqual(await computed(page, "background-color"), "rgb(227, 238, 244)");
    strictEqual(await computed(page, "--accent"), "rgb(11, 90, 138)");
    await f.browser.screenshot(page, "skin-poseidon-light");

    const settings = await h.call("GET", "/api/settings");
    strictEqual(settings.body.skin, "poseidon");
    const again = await page.reload();
    ok(/<html[^>]*data-skin="poseidon"/.test(await again!.text()), "painted from the first frame");
    strictEqual(await computed(page, "background-color"), "rgb(227, 238, 244)");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});
