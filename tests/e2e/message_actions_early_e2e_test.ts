// Message actions load on the reader's first interaction (they are not needed to read the chat). A
// click on one before its module arrives must not be lost: it is kept and replayed. The module's
// chunk is held back here until after the click, so the early path is the one exercised.
import { strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";

/** The island chunk that holds lib/browser/message_actions.ts (found by what only it says). */
async function messageActionsChunk(): Promise<string> {
  const dir = join(import.meta.dirname!, "../../static/_islands");
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.startsWith("chunk-")) continue;
    const text = await Deno.readTextFile(join(dir, entry.name));
    if (text.includes("/api/session/regenerate")) return entry.name;
  }
  throw new Error("no island chunk holds the message actions (did the build run?)");
}

browserTest(
  "an Edit clicked before the message actions have loaded still opens the editor",
  async () => {
    const chunk = await messageActionsChunk();
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app);
      const page = await browser.newPage();
      const release = Promise.withResolvers<void>();
      let held = false;
      await page.route(`**/${chunk}`, async (route) => {
        held = true;
        await release.promise;
        await route.continue();
      });
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      await page.waitForFunction(() => document.querySelector(".msg-actions-user"));
      // The module loads on the reader's first interaction (the pointer reaching the button).
      await page.locator(".msg-actions-user").last().locator('[data-action="edit-user"]').click();
      strictEqual(held, true, "the message actions' chunk was requested and is being held");
      strictEqual(await page.locator(".msg-edit textarea").count(), 0, "nothing can answer yet");
      release.resolve();
      await page.locator(".msg-edit textarea").waitFor();
      browser.assertNoErrors();
    });
  },
);
