// Issue 29 leftovers, in Chromium: while the page cannot reach its server (the browser goes
// offline under a run waiting for approval) the approval card's answers are disabled and the
// card says why; back online, the sign goes, the card's answers come back and one of them works.
// (One "reconnecting" message at a time, with a server that really goes: offline_e2e_test.ts.)
// Screenshots of the offline card in both themes. Fails on any console error but the failed
// loads of the offline window.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const OFFLINE_LOADS = /^console\.error: Failed to load resource: net::ERR_INTERNET_DISCONNECTED$/;

browserTest(
  "offline: the approval card's answers wait for the connection and come back with it",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      await Deno.mkdir(join(h.workspace, "build"));
      await f.open();
      h.fake.enqueue(
        { toolCalls: [{ name: "terminal", args: { command: "rm -rf build/" } }] },
        { text: "Removed it." },
      );
      await f.send("Clean the build folder");
      const card = page.locator(".approval-card");
      await card.waitFor();
      const answers = card.locator(".approval-actions button");
      ok(await answers.count() >= 3);
      strictEqual(await card.locator("button:disabled").count(), 0, "answerable while online");

      await page.context().setOffline(true);
      await page.locator('.connection-sign[data-reach="offline"]').waitFor({ timeout: 15_000 });
      await card.locator(".approval-offline").waitFor();
      strictEqual(
        await card.locator("button:enabled").count(),
        0,
        "no answer can be clicked while the server is out of reach",
      );
      ok(await card.getAttribute("data-offline") !== null);
      // Enter (the card's "allow once" key) does nothing either.
      await card.locator(".approval-command").click();
      await page.keyboard.press("Enter");
      for (const theme of ["dark", "light"] as const) {
        await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
        await f.browser.screenshot(page, `approval-offline-${theme}`);
      }

      await page.context().setOffline(false);
      await page.locator('.connection-sign[data-reach="online"]').waitFor({
        state: "attached",
        timeout: 15_000,
      });
      await card.locator(".approval-offline").waitFor({ state: "detached" });
      strictEqual(await card.locator(".approval-actions button:disabled").count(), 0);
      await card.locator('[data-choice="once"]').click();
      await f.settled();
      strictEqual(await card.count(), 0, "answered once back online");
      const gone = await Deno.stat(join(h.workspace, "build")).then(() => false, () => true);
      ok(gone, "the command ran after the answer");
      const errors = f.browser.errors.filter((e) => !OFFLINE_LOADS.test(e));
      deepStrictEqual(errors, []);
    } finally {
      await f.close();
    }
  },
);
