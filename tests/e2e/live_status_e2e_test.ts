// The live status in Chromium: while a turn runs, its collapsed Activity row says what is
// happening now ("Running `sleep 1.5; echo done`") and the line goes when the
// turn ends. Desktop and phone.
import { strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(`the Activity row says what runs now (${size.width}px)`, async () => {
    const f = await transcriptFixture(size);
    const { page, h } = f;
    try {
      await f.open();
      h.fake.enqueue(
        { toolCalls: [{ name: "terminal", args: { command: "sleep 1.5; echo done" } }] },
        { text: "It printed done.", headerDelayMs: 1200 },
      );
      await f.send("run the slow command");
      const status = page.locator(".turns-live details.activity .activity-status");
      await status.filter({ hasText: "Running `sleep 1.5; echo done`" }).waitFor();
      await f.browser.screenshot(page, `live-status-${size.width}`);
      await f.settled();
      strictEqual(await status.count(), 0, "no live line once the turn ended");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  });
}
