// The diff view in Chromium: a patch call's card, opened, shows a coloured unified diff with
// old and new line numbers (computed on the server, drawn by a component loaded on demand);
// the turn's "1 file changed" opens its diffs; after a reload the server-rendered history shows
// the same diff. Desktop and phone.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest } from "./browser.ts";
import { openToolCard, transcriptFixture } from "./transcript_harness.ts";

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(`a patch card shows its diff with line numbers (${size.width}px)`, async () => {
    const f = await transcriptFixture(size);
    const { page, h } = f;
    try {
      await Deno.writeTextFile(
        join(h.workspace, "calc.py"),
        "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n",
      );
      const scripts: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "script") scripts.push(r.url());
      });
      await f.open();
      const firstLoad = scripts.length;
      h.fake.enqueue({
        toolCalls: [{
          name: "patch",
          args: {
            path: "calc.py",
            old_string: "def add(a, b):\n    return a - b",
            new_string: "def add(a, b):\n    return a + b",
          },
        }],
      }, { text: "Fixed add()." });
      await f.send("fix add in calc.py");
      await f.settled();
      const live = page.locator(".turns-live .turn").last();
      // On a phone the composer dock covers the row's bottom edge: open it as a script would.
      await openToolCard(live, "patch");
      const view = live.locator(".diff-view");
      await view.waitFor();
      ok(scripts.length > firstLoad, "the diff view loaded on demand");
      strictEqual(await view.locator(".diff-path").textContent(), "calc.py");
      const del = view.locator(".diff-del");
      const add = view.locator(".diff-add");
      strictEqual(await del.count(), 1);
      strictEqual(await add.count(), 1);
      strictEqual(await del.locator(".diff-text").textContent(), "    return a - b");
      strictEqual(await del.locator(".diff-num").first().textContent(), "2", "old line number");
      strictEqual(await add.locator(".diff-num").nth(1).textContent(), "2", "new line number");
      const bg = await add.evaluate((e) => getComputedStyle(e).backgroundColor);
      ok(bg !== "rgba(0, 0, 0, 0)", `added lines are coloured (${bg})`);
      await f.browser.screenshot(page, `diff-view-${size.width}`);

      // The turn's quiet "1 file changed" opens the turn's diffs in a dialog.
      const note = live.locator("[data-files-changed]");
      strictEqual(await note.textContent(), "1 file changed");
      await note.evaluate((b) => (b as HTMLElement).click());
      const dialog = page.locator(".files-changed-dialog");
      await dialog.locator(".diff-view .diff-add").waitFor();
      strictEqual(await dialog.locator(".diff-path").textContent(), "calc.py");
      await f.browser.screenshot(page, `files-changed-${size.width}`);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      await f.open();
      const hist = page.locator("#transcript-history .turn").last();
      await openToolCard(hist, "patch");
      await hist.locator(".diff-view .diff-add").waitFor();
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  });
}
