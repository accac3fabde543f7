// The side-result cards above the composer in Chromium (issue 29): a `/background` task's answer
// and a `/btw` answer render as markdown like the transcript's (a heading, a table, code; no raw
// `##` or pipes), the card stays within about half the window and scrolls inside, and the
// composer's Send button never leaves the screen — on a desktop, with the workspace panel open,
// and on a phone.
import { ok } from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

/** A long report: far taller than any window when shown as text. */
const REPORT = [
  "## Audit report",
  "",
  "All **42** suites pass; the slow ones:",
  "",
  "| Suite | Time |",
  "| --- | --- |",
  ...Array.from({ length: 60 }, (_, i) => `| suite-${i + 1} | ${(i % 7) + 1}.${i % 10} s |`),
  "",
  "```ts",
  "const slowest = suites.sort(byTime).at(-1);",
  "```",
  "",
  "That is all.",
].join("\n");

/** Where the element is on screen, and the window's size. */
function geometry(page: Page, selector: string) {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height, vh: innerHeight, vw: innerWidth };
  });
}

/** The Send button is entirely inside the window, and the transcript keeps a visible share. */
async function assertComposerOnScreen(page: Page, where: string): Promise<void> {
  const send = await geometry(page, ".composer .btn-send");
  ok(send.height > 0, `${where}: the Send button is shown`);
  ok(send.top >= 0 && send.bottom <= send.vh, `${where}: Send at ${send.top}–${send.bottom}`);
  const transcript = await geometry(page, ".transcript");
  ok(
    transcript.height >= send.vh * 0.1,
    `${where}: the transcript keeps ${transcript.height}px of ${send.vh}px`,
  );
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  const phone = size.width < 640;
  browserTest(
    `background and side answers render as capped markdown cards (${size.width}px)`,
    async () => {
      const f = await transcriptFixture(size);
      const { page, h } = f;
      try {
        await f.open();
        h.fake.enqueue({ text: REPORT, chunkSize: 64 });
        await page.locator("#composer-input").fill("/background audit the suites");
        await page.keyboard.press("Enter");
        const card = page.locator(".bg-tasks");
        const answer = card.locator('.bg-task[data-status="done"] .bg-task-answer');
        await answer.waitFor();
        await answer.locator('.side-answer[data-state="final"]').waitFor();

        // Rendered like an answer: elements, not markdown source.
        await answer.locator("h2", { hasText: "Audit report" }).waitFor();
        await answer.locator("table td", { hasText: "suite-60" }).waitFor();
        await answer.locator("pre.code-block code.language-ts").waitFor();
        ok(await answer.locator("strong", { hasText: "42" }).count() === 1, "bold text");
        const text = await answer.textContent() ?? "";
        ok(!text.includes("##") && !text.includes("|"), `no raw markdown: ${text.slice(0, 120)}`);

        // About half the window at most; the rest of the answer scrolls inside the card.
        const box = await geometry(page, ".bg-tasks");
        ok(box.height <= box.vh * 0.55, `the card is ${box.height}px of ${box.vh}px`);
        const scrolls = await card.locator(".side-panel-body").evaluate((el) =>
          el.scrollHeight > el.clientHeight + 10 && getComputedStyle(el).overflowY === "auto"
        );
        ok(scrolls, "the card's body scrolls");
        await assertComposerOnScreen(page, "background card");
        await f.browser.screenshot(page, `background-card-${size.width}`);

        // A side question's answer joins it: both cards together stay within the cap.
        h.fake.enqueue({ text: "### Short answer\n\nIt is **suite-7**.\n\n- fast\n- stable" });
        await page.locator("#composer-input").fill("/btw which suite is flaky?");
        await page.keyboard.press("Enter");
        const btw = page.locator('.btw-panel[data-status="done"] .side-answer[data-state="final"]');
        await btw.locator("h3", { hasText: "Short answer" }).waitFor();
        ok(await btw.locator("li").count() === 2, "a list");
        const both = await geometry(page, ".side-results");
        ok(both.height <= both.vh * 0.55, `both cards are ${both.height}px of ${both.vh}px`);
        await assertComposerOnScreen(page, "both cards");
        await f.browser.screenshot(page, `background-and-btw-${size.width}`);

        if (!phone) {
          // With the workspace panel beside the conversation, the narrower column wraps more.
          await page.locator('.topbar [data-action="toggle-workspace"]').click();
          await page.locator('.app[data-workspace-panel="open"]').waitFor();
          await page.locator('.btw-panel [data-action="dismiss-btw"]').click();
          await page.locator(".btw-panel").waitFor({ state: "detached" });
          const narrow = await geometry(page, ".bg-tasks");
          ok(narrow.height <= narrow.vh * 0.55, `with the panel: ${narrow.height}px`);
          await assertComposerOnScreen(page, "workspace panel open");
          await f.browser.screenshot(page, `background-card-panel-${size.width}`);
        }
        f.browser.assertNoErrors();
      } finally {
        await f.close();
      }
    },
  );
}
