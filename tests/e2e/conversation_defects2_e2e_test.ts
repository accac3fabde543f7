// Issue 14, points 4–10 in Chromium against the real engine and the scripted fake provider:
// attachments show at once (thumbnail, opens the file) and after a reload; `/use` without its
// skill is held with a usage hint; a streamed table grows as a table; DESIGN.md's type rules
// (serif only for assistant prose, code on the scale); the sidebar's running dot (accent
// pulse, never under "…") on desktop and phone; a project chip keeps the open chat; search
// snippets are plain text around the match; the no-provider card keeps its YAML and links to
// setup. Screenshots are named after the point they show (p4-…, p5-…).
import { ok, strictEqual } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { browserTest, type Page } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

const font = (page: Page, sel: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const cs = getComputedStyle(el);
    return { family: cs.fontFamily, size: cs.fontSize };
  }, sel);

browserTest(
  "attachments, /use held, growing table, typography, search snippet, project chip",
  async () => {
    const f = await transcriptFixture({ width: 1440, height: 900 });
    const { page, h } = f;
    try {
      const starts: string[] = [];
      page.on("request", (r) => {
        if (r.url().endsWith("/api/chat/start")) starts.push(r.postData() ?? "");
      });
      await f.open();
      // Point 10: UI chrome is sans (the empty state), on the type scale.
      const empty = await font(page, ".empty-title");
      if (empty) ok(!empty.family.includes("Georgia"), `empty state: ${empty.family}`);

      // Point 5: `/use` alone is held with its usage, nothing is sent.
      await page.locator("#composer-input").fill("/use ");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Enter");
      await page.locator("#composer-error").waitFor();
      ok((await page.locator("#composer-error").textContent())!.includes("Usage: /use <skill>"));
      strictEqual(await page.locator("#composer-input").inputValue(), "/use ");
      strictEqual(starts.length, 0, "nothing went to the model");
      await f.browser.screenshot(page, "p5-slash-held-desktop");
      await page.locator("#composer-input").fill("");

      // Point 4: an image attachment shows as a thumbnail chip at once, and opens.
      await page.locator('[data-role="file-input"]').setInputFiles({
        name: "shot.png",
        mimeType: "image/png",
        buffer: Buffer.from(PNG),
      });
      await h.fake.enqueue({
        text: "Here is the table:\n\n| Service | State |\n|---|---|\n| api | up |\n" +
          "| **`kubelet`** | down |\n| db | up |\n\nThe `kubelet` service is the one to restart.",
        delayMs: 120,
      });
      await page.locator("#composer-input").fill("What is in this screenshot?");
      await page.keyboard.press("Enter");
      const thumb = page.locator(".turns-live .msg-attachment[data-image] img");
      await thumb.waitFor();
      await page.waitForFunction(() =>
        (document.querySelector(".turns-live .msg-attachment img") as HTMLImageElement)
          ?.naturalWidth > 0
      );
      // Point 10: the table streams as a table (while the turn is live), not raw pipes.
      await page.locator(".turns-live .turn[data-live] table").waitFor();
      const liveText = await page.locator(".turns-live .turn[data-live]").textContent();
      ok(!liveText!.includes("|---"), `no raw pipes while streaming: ${liveText}`);
      await f.browser.screenshot(page, "p10-table-streaming-desktop");
      await f.settled();
      await f.browser.screenshot(page, "p4-attachment-chip-desktop");
      // A click opens the file in a new tab (the link, and what it serves). The tab itself is
      // not opened here: the browser's image viewer asks for /favicon.ico, a 404 on its own.
      const chip = page.locator(".turns-live .msg-attachment").first();
      strictEqual(await chip.getAttribute("target"), "_blank");
      const opened = await page.request.get(
        new URL((await chip.getAttribute("href"))!, page.url()).href,
      );
      strictEqual(opened.status(), 200);
      strictEqual(opened.headers()["content-type"], "image/png");
      await page.reload();
      await page.locator(".msg-attachment[data-image] img").waitFor();
      strictEqual(
        (await page.locator(".msg-attachment .msg-attachment-name").first().textContent())!.trim(),
        "shot.png",
      );
      // Point 10: tables and headings in an answer are serif; code is 12 px.
      ok((await font(page, ".prose table"))!.family.includes("Georgia"));
      ok((await font(page, ".prose th"))!.family.includes("Georgia"));
      ok(!(await font(page, "#composer-input"))!.family.includes("Georgia"), "UI stays sans");
      await f.browser.screenshot(page, "p10-typography-desktop");
      await page.setViewportSize({ width: 390, height: 844 });
      ok((await font(page, ".prose table"))!.family.includes("Georgia"), "phone: serif table");
      await f.browser.screenshot(page, "p10-typography-phone");
      await page.setViewportSize({ width: 1440, height: 900 });

      // Point 9: the search snippet is plain text around the match.
      await page.locator("#session-search").fill("kubelet");
      const snippet = page.locator(".session-snippet").first();
      await snippet.waitFor();
      const text = (await snippet.textContent())!;
      ok(text.includes("kubelet") && !/[`*|]/.test(text), `plain snippet: ${text}`);
      // The highlighted word is inside the visible part of the row (not behind its ellipsis).
      const [mark, box] = [
        await snippet.locator("mark").first().boundingBox(),
        await snippet.boundingBox(),
      ];
      ok(mark && box && mark.x + mark.width <= box.x + box.width + 1, "the match is visible");
      await f.browser.screenshot(page, "p9-search-snippet-desktop");
      await page.locator("#session-search").fill("");

      // Point 8: a project chip filters and keeps the open chat.
      await h.call("POST", "/api/projects/create", { name: "Alpha" });
      await page.reload();
      await page.locator("[data-project-chips] [data-project-id]").first().click();
      await page.waitForURL(/project=/);
      ok(new URL(page.url()).searchParams.get("session") === h.sessionId, page.url());
      strictEqual(await page.locator(".msg-user-bubble").count() > 0, true, "the chat stays open");
      await f.browser.screenshot(page, "p8-project-filter-keeps-chat-desktop");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

for (const size of [{ tag: "desktop", w: 1440, ht: 900 }, { tag: "phone", w: 390, ht: 844 }]) {
  browserTest(
    `the sidebar's running dot is an accent pulse clear of "…" (${size.tag})`,
    async () => {
      const f = await transcriptFixture({ width: size.w, height: size.ht });
      const { page, h } = f;
      try {
        const busy = await h.newSession();
        await h.fake.enqueue({ text: "thinking slowly about it", hang: 2 });
        await h.call("POST", "/api/chat/start", { session_id: busy, message: "A long job" });
        await f.open();
        if (size.tag === "phone") {
          // A touch screen: no hover, coarse pointer (the "…" button is always shown there).
          const cdp = await page.context().newCDPSession(page);
          await cdp.send("Emulation.setTouchEmulationEnabled", {
            enabled: true,
            maxTouchPoints: 1,
          });
          await cdp.send("Emulation.setEmulatedMedia", {
            media: "",
            features: [{ name: "hover", value: "none" }, { name: "pointer", value: "coarse" }],
          });
          await page.reload();
          await page.locator(".topbar-drawer-btn").waitFor();
          ok(await page.evaluate(() => matchMedia("(hover: none)").matches), "touch emulated");
          await page.locator(".topbar-drawer-btn").click();
        }
        const row = page.locator(`.session-row[data-session-id="${busy}"]`);
        const dot = row.locator(".session-live");
        await dot.waitFor();
        const bg = await dot.evaluate((el) => getComputedStyle(el).backgroundColor);
        ok(bg !== "rgb(134, 192, 139)", `running is not the success green: ${bg}`);
        if (size.tag === "desktop") await row.hover();
        const btn = row.locator(".session-menu-btn");
        const [d, b] = [await dot.boundingBox(), await btn.boundingBox()];
        const hidden = await dot.evaluate((el) => getComputedStyle(el).visibility === "hidden");
        const overlap = d && b && d.x < b.x + b.width && d.x + d.width > b.x &&
          d.y < b.y + b.height && d.y + d.height > b.y;
        ok(d && b, "dot and button are laid out");
        ok(hidden || !overlap, "the dot is never under the … button");
        await f.browser.screenshot(page, `p7-running-dot-${size.tag}`);
        f.browser.assertNoErrors();
      } finally {
        await f.close();
      }
    },
  );
}

browserTest("the no-provider card shows its YAML as a code block and links to setup", async () => {
  // A provider chosen without its key: the turn ends with no_provider (no onboarding redirect).
  const f = await transcriptFixture({
    configYaml: "model:\n  provider: openrouter\n  default: x/y\n",
    env: { HERMES_WEBUI_SKIP_ONBOARDING: "1" },
  });
  const { page } = f;
  try {
    await f.open();
    await f.send("is anyone there?");
    const notice = page.locator(".turn-notice[data-kind='error']").last();
    await notice.waitFor();
    const pre = notice.locator(".turn-notice-code").first();
    ok((await pre.textContent())!.includes("model:\n  provider:"), "YAML keeps its lines");
    strictEqual(await notice.locator("a.turn-notice-link").getAttribute("href"), "/onboarding");
    await f.browser.screenshot(page, "p6-no-provider-card-desktop");
  } finally {
    await f.close();
  }
});
