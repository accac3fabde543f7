// The first chat, end to end in a real browser: from the empty state, type a message, press
// Enter; the page moves to the new session and the answer streams in live (seen growing, not
// only settled), then stays after a reload. Real server, fake provider on loopback.
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { createTestApp, serveTestApp } from "../helpers.ts";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { browserTest, ensureIslandsBuilt, launchBrowser, waitForIslands } from "./browser.ts";

browserTest(
  "the first chat from the empty state streams its answer into the new session",
  async () => {
    await ensureIslandsBuilt();
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const answer = `Streaming answer: ${words} END-OF-ANSWER`;
    const fake = startFakeProvider({ script: [{ text: answer, chunkSize: 8, delayMs: 40 }] });
    const app = await createTestApp({
      configYaml:
        `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n` +
        `  api_key: test-key\n`,
    });
    const server = serveTestApp(app);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      // Sample the transcript's text on every page, from its first moment, to see it grow.
      await page.addInitScript(() => {
        const w = window as unknown as { __samples: number[] };
        w.__samples = [];
        setInterval(() => {
          const text = document.querySelector(".transcript")?.textContent ?? "";
          if (text.includes("Streaming answer") && !text.includes("END-OF-ANSWER")) {
            w.__samples.push(text.length);
          }
        }, 25);
      });
      await page.goto(`${server.url}/`);
      await waitForIslands(page);
      strictEqual(await page.locator(".empty-state").count(), 1);
      await browser.screenshot(page, "first-chat-empty");

      await page.locator("#composer-input").click();
      await page.keyboard.type("Hello Hermes, what can you do?");
      await browser.screenshot(page, "first-chat-typed");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/\?session=[0-9a-f]{12}$/);
      const sid = new URL(page.url()).searchParams.get("session")!;

      await page.waitForFunction(
        () => document.querySelector(".transcript")?.textContent?.includes("END-OF-ANSWER"),
        undefined,
        { timeout: 30_000 },
      ).catch(async (e) => {
        await browser.screenshot(page, "DEBUG-first-chat");
        console.log(browser.errors, app.logs.slice(-20));
        throw e;
      });
      const samples = await page.evaluate(() =>
        (window as unknown as { __samples: number[] }).__samples
      );
      assert(
        new Set(samples).size >= 2,
        `the answer was seen growing while it streamed (samples: ${samples.join(",")})`,
      );
      assert(
        (await page.locator(".transcript").textContent())!.includes(
          "Hello Hermes, what can you do?",
        ),
        "the user's message is in the transcript",
      );
      await browser.screenshot(page, "first-chat-answered");

      // The composer is ready for the next message once the run is over.
      await page.waitForFunction(() =>
        document.querySelector(".composer")?.getAttribute("data-state") === "idle"
      );
      const { body } = await app.call<{ session: { messages: Array<{ role: string }> } }>(
        "GET",
        `/api/session?session_id=${sid}`,
      );
      assertEquals(body.session.messages.map((m) => m.role), ["user", "assistant"]);

      // The settled answer is there after a reload too.
      await page.reload();
      await waitForIslands(page);
      assert((await page.locator(".transcript").textContent())!.includes("END-OF-ANSWER"));
      strictEqual(fake.chatRequests.length, 1);
      browser.assertNoErrors();
    } finally {
      await browser.close();
      await server.shutdown();
      await app.close();
      await fake.close();
    }
  },
);
