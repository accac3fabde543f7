// "Jump to latest" in Chromium: while an answer streams, scrolling up to read shows the button
// over the composer; a click brings the transcript back to its end and the button goes.
// Desktop and phone.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(`jump to latest while an answer streams (${size.width}px)`, async () => {
    const f = await transcriptFixture(size);
    const { page, h } = f;
    try {
      await f.open();
      // The second answer waits after 100 words until the test stops it: the run is still on
      // when the transcript is scrolled up, however slow the machine, and the test does not
      // sit through 400 words.
      h.fake.enqueue({ text: "line of the answer\n\n".repeat(40) }, {
        text: "word ".repeat(400),
        delayMs: 40,
        hang: 100,
      });
      await f.send("a long answer first");
      await f.settled();
      await f.send("now stream slowly");
      await page.locator("button[data-action='stop']").waitFor();
      const jump = page.locator("[data-jump-latest]");
      strictEqual(await jump.count(), 0, "at the end: no button");
      // A late end of an earlier run (its events can trail the next run's start) hides nothing.
      await page.evaluate(() =>
        dispatchEvent(
          new CustomEvent("hermes:run-state", {
            detail: { session_id: "", stream_id: "an-earlier-run", active: false },
          }),
        )
      );
      await page.locator(".transcript").evaluate((s) => {
        s.scrollTop = getComputedStyle(s).flexDirection === "column-reverse" ? -s.scrollHeight : 0;
        s.dispatchEvent(new Event("scroll"));
      });
      await jump.waitFor();
      await f.browser.screenshot(page, `jump-latest-${size.width}`);
      await jump.click();
      await jump.waitFor({ state: "detached" });
      const gap = await page.locator(".transcript").evaluate((s) =>
        getComputedStyle(s).flexDirection === "column-reverse"
          ? Math.abs(s.scrollTop)
          : s.scrollHeight - s.clientHeight - s.scrollTop
      );
      ok(gap < 120, `back at the end (${gap}px away)`);
      await page.locator("button[data-action='stop']").click();
      await f.settled();
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  });
}
