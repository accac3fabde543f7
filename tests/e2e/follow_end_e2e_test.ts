// Following the transcript's end in Chromium (issue 29): a finished long answer ends above the
// composer when the person stayed at the end (scroll anchoring once held the view on the user
// message while the answer grew below the composer), and when they read further up, "Jump to
// latest" stays offered after the run ended until they are back at the end.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest, type Page, screenshotThemes } from "./browser.ts";
import { withTranscriptFixture } from "./transcript_harness.ts";

/** Extra screenshots for review, light and dark, go here when the folder exists. */
const SHOTS = "/tmp/shots_follow";

/** The last line of the newest answer and the composer, as the person sees them. */
function lastLineAndComposer(page: Page) {
  return page.evaluate(() => {
    const answer = [...document.querySelectorAll(".turns-live .prose")].at(-1)!;
    const line = answer.lastElementChild!.getBoundingClientRect();
    const dock = document.querySelector(".composer-dock")!.getBoundingClientRect();
    const view = document.querySelector(".transcript")!.getBoundingClientRect();
    return { lineTop: line.top, lineBottom: line.bottom, dockTop: dock.top, viewTop: view.top };
  });
}

const distanceFromEnd = (page: Page) =>
  page.locator(".transcript").evaluate((s) =>
    getComputedStyle(s).flexDirection === "column-reverse"
      ? Math.abs(s.scrollTop)
      : s.scrollHeight - s.clientHeight - s.scrollTop
  );

browserTest(
  "a finished long answer ends above the composer, on a desktop and a phone",
  async () => {
    for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await withTranscriptFixture(size, async (f) => {
        const { page, h } = f;
        await Deno.writeTextFile(`${h.workspace}/notes.txt`, "hello\n");
        await f.open();
        h.fake.enqueue({ text: "an earlier answer\n\n".repeat(40) });
        await f.send("fill the page first");
        await f.settled();
        // Tool steps, then a long answer streamed over many frames: the view must keep its end.
        h.fake.enqueue(
          {
            text: "Reading `notes.txt`.",
            toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }],
            delayMs: 10,
          },
          {
            text: "A paragraph of the long answer, with a few words in it.\n\n".repeat(30) +
              "THE LAST LINE of the answer.",
            delayMs: 5,
          },
        );
        await f.send("a long answer after a tool");
        await f.settled();
        await page.locator(".turns-live .msg-actions-answer").last().waitFor();
        const box = await lastLineAndComposer(page);
        ok(
          box.lineBottom <= box.dockTop + 0.5,
          `the last line (bottom ${box.lineBottom}) is not under the composer (top ${box.dockTop})`,
        );
        ok(box.lineTop >= box.viewTop, `the last line is in view (top ${box.lineTop})`);
        strictEqual(await page.locator("[data-jump-latest]").count(), 0, "no button at the end");
        await f.browser.screenshot(page, `follow-end-${size.width}`);
        await screenshotThemes(page, SHOTS, `follow-end-${size.width}`);
        f.browser.assertNoErrors();
      });
    }
  },
);

browserTest(
  "Jump to latest stays offered after the run ended, until the end is reached",
  async () => {
    await withTranscriptFixture({ width: 1280, height: 800 }, async (f) => {
      const { page, h } = f;
      await f.open();
      let release = () => {};
      h.fake.enqueue({ text: "an earlier answer\n\n".repeat(40) }, {
        text: "more of the new answer\n\n".repeat(30),
        hang: 20,
        release: new Promise((r) => release = () => r(undefined)),
      });
      await f.send("fill the page first");
      await f.settled();
      await f.send("now answer while I read above");
      await page.locator("button[data-action='stop']").waitFor();
      // The person scrolls up to read while the answer is held mid-stream.
      await page.locator(".transcript").evaluate((s) => {
        s.scrollTop = getComputedStyle(s).flexDirection === "column-reverse" ? -s.scrollHeight : 0;
      });
      const jump = page.locator("[data-jump-latest]");
      await jump.waitFor();
      release();
      await f.settled();
      await page.locator("button[data-action='stop']").waitFor({ state: "detached" });
      ok((await distanceFromEnd(page)) > 120, "nothing scrolled the reader away from their place");
      ok(await jump.isVisible(), "Jump to latest is still offered after the run ended");
      await jump.click();
      await jump.waitFor({ state: "detached" });
      const gap = await distanceFromEnd(page);
      ok(gap < 120, `back at the end (${gap}px away)`);
      const box = await lastLineAndComposer(page);
      ok(box.lineBottom <= box.dockTop + 0.5, "the answer's last line is above the composer");
      f.browser.assertNoErrors();
    });
  },
);
