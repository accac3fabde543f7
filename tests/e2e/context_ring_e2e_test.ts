// The context ring in Chromium: after an answer whose request filled 70% of the window the top
// bar's ring shows it in amber; a click offers compression (`/compress ` in the composer) and
// `/compress <focus>` runs a summary that carries the focus. Desktop and phone.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { waitFor } from "../fixtures/engine_harness.ts";

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(`the context ring fills and offers /compress <focus> (${size.width}px)`, async () => {
    const f = await transcriptFixture({ ...size, yaml: "context_windows: {fake-model: 10000}\n" });
    const { page, h } = f;
    try {
      await f.open();
      const ring = page.locator("[data-context-ring]");
      strictEqual(await ring.isVisible(), false, "no ring before the first answer");
      h.fake.enqueue({ text: "first", usage: { input_tokens: 3000, output_tokens: 5 } });
      await f.send("one");
      await f.settled();
      h.fake.enqueue({ text: "second", usage: { input_tokens: 7000, output_tokens: 5 } });
      await f.send("two");
      await f.settled();
      await page.locator("[data-context-ring][data-filling='true']").waitFor();
      ok((await ring.getAttribute("title"))!.startsWith("70% of the context window used"));
      await f.browser.screenshot(page, `context-ring-${size.width}`);
      await ring.click();
      strictEqual(await page.locator("#composer-input").inputValue(), "/compress ");
      h.fake.enqueue({ text: "SUMMARY of the deploy talk" });
      await page.locator("#composer-input").fill("/compress deploys");
      await page.keyboard.press("Enter");
      await waitFor(() =>
        JSON.stringify(h.fake.chatRequests.at(-1)?.body ?? "").includes('\\"deploys\\"') || null
      );
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  });
}
