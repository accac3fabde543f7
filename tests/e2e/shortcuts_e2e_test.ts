// Page-wide keys in Chromium: Ctrl+K opens the quick switcher (chats by title, fuzzy; loaded on
// demand) and Enter jumps to the match; Esc stops a running answer. Desktop and phone.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(
    `Ctrl+K switches chats by fuzzy title; Esc stops a run (${size.width}px)`,
    async () => {
      const f = await transcriptFixture(size);
      const { page, h } = f;
      try {
        const ids: Record<string, string> = {};
        for (const title of ["Deploy fix for staging", "Grocery list", "Dependency upgrade"]) {
          const id = await h.newSession();
          h.fake.enqueue({ text: "ok" });
          await h.stream(
            (await h.call("POST", "/api/chat/start", { session_id: id, message: "hi" }))
              .body.stream_id,
          );
          await h.call("POST", "/api/session/rename", { session_id: id, title });
          ids[title] = id;
        }
        const scripts: string[] = [];
        page.on("request", (r) => {
          if (r.resourceType() === "script") scripts.push(r.url());
        });
        await f.open();
        const firstLoad = scripts.length;
        await page.keyboard.press("Control+k");
        const input = page.locator("[data-quick-switcher] input");
        await input.waitFor();
        ok(scripts.length > firstLoad, "the switcher loaded on demand");
        await page.locator("[data-quick-switcher] .quick-switcher-item").first().waitFor();
        await input.fill("dply stg");
        const items = page.locator("[data-quick-switcher] .quick-switcher-item");
        strictEqual(await items.first().textContent(), "Deploy fix for staging");
        await f.browser.screenshot(page, `quick-switcher-${size.width}`);
        await page.keyboard.press("Enter");
        await page.waitForURL(new RegExp(`session=${ids["Deploy fix for staging"]}`));

        // Esc stops a running answer.
        await f.open(h.sessionId);
        h.fake.enqueue({ text: "a very slow answer ".repeat(50), delayMs: 200 });
        await f.send("take your time");
        await page.locator("button[data-action='stop']").waitFor();
        await page.locator(".turns-live .prose").first().waitFor();
        await page.keyboard.press("Escape");
        await page.locator("button[data-action='stop']").waitFor({ state: "detached" });
        const status = await h.call("GET", `/api/session/status?session_id=${h.sessionId}`);
        strictEqual(status.status, 200);
        strictEqual(status.body.is_streaming, false, "the run was stopped");
        f.browser.assertNoErrors();
      } finally {
        await f.close();
      }
    },
  );
}
