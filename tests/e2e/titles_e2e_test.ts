// Titles by the model and the thinking toggle in Chromium: after the first answer the sidebar
// row takes the model's title (no reload); `/title` alone asks for a new one; with "Show
// thinking" off the Activity's thinking blocks are hidden. Desktop and phone.
import { strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(`model titles, /title and the thinking toggle (${size.width}px)`, async () => {
    const f = await transcriptFixture(size);
    const { page, h } = f;
    try {
      h.app.ctx.runs.configure({ autoTitle: true });
      await f.open();
      h.fake.enqueue(
        { reasoning: "The user wants a CSV parser.", text: "Use csv.reader." },
        { text: "Parsing CSV in Python" },
      );
      await f.send("how do I read a csv file in python");
      await f.settled();
      const row = page.locator(`.session-row[data-session-id="${h.sessionId}"] .session-title`);
      await page.waitForFunction(
        (id) =>
          document.querySelector(`.session-row[data-session-id="${id}"] .session-title`)
            ?.textContent === "Parsing CSV in Python",
        h.sessionId,
      );
      strictEqual(await row.textContent(), "Parsing CSV in Python");

      h.fake.enqueue({ text: "Reading CSV files" });
      await page.locator("#composer-input").fill("/title");
      await page.keyboard.press("Enter");
      await page.locator("[data-topbar-title]", { hasText: "Reading CSV files" }).waitFor();
      await f.browser.screenshot(page, `titles-${size.width}`);

      // Thinking shows in the Activity, and hides with "Show thinking" off.
      const live = page.locator(".turns").last();
      await live.locator("details.activity").first().evaluate((d) =>
        (d as HTMLDetailsElement).open = true
      );
      await page.locator(".activity-thinking").first().waitFor();
      await page.evaluate(() =>
        globalThis.dispatchEvent(
          new CustomEvent("hermes:settings-changed", {
            detail: { changed: ["show_thinking"], settings: { show_thinking: false } },
          }),
        )
      );
      strictEqual(await page.locator(".activity-thinking").first().isVisible(), false);
      const saved = await h.call("POST", "/api/settings", { show_thinking: false });
      strictEqual(saved.status, 200);
      await f.open();
      await page.locator("details.activity").first().evaluate((d) =>
        (d as HTMLDetailsElement).open = true
      );
      strictEqual(await page.locator("html[data-hide-thinking]").count(), 1);
      strictEqual(await page.locator(".activity-thinking").first().isVisible(), false);
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  });
}
