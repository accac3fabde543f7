// What a screen reader gets from the console, in Chromium against the real engine (issue 19 §3):
// landmarks and one h1; a name on every button; the transcript as a log that is not live; a
// streamed answer announced once when it settles (never token by token) through the shell's
// polite live region, an approval through the assertive one; the accessibility tree (ARIA
// snapshot) of a finished turn and of an approval card, tool status in words.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest, type Page } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

/** Start recording every text the live region `kind` is given (one entry per mutation batch). */
function recordRegion(page: Page, kind: "polite" | "assertive"): Promise<void> {
  return page.evaluate((kind) => {
    const region = document.querySelector(`[data-announce="${kind}"]`)!;
    const said: string[] = [];
    (globalThis as unknown as Record<string, string[]>)[`said_${kind}`] = said;
    new MutationObserver((records) => {
      // One entry per mutation record: a token-by-token region would log one per token.
      for (const _ of records) said.push(region.textContent ?? "");
    }).observe(region, { childList: true, characterData: true, subtree: true });
  }, kind);
}

function regionLog(page: Page, kind: "polite" | "assertive"): Promise<string[]> {
  return page.evaluate(
    (kind) => (globalThis as unknown as Record<string, string[]>)[`said_${kind}`] ?? [],
    kind,
  );
}

/** Every button Chromium's accessibility tree exposes, with its computed name. */
async function buttonNames(page: Page): Promise<{ name: string; html: string }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("Accessibility.enable");
    const { nodes } = await cdp.send("Accessibility.getFullAXTree") as {
      nodes: Array<{
        ignored: boolean;
        role?: { value: string };
        name?: { value: string };
        backendDOMNodeId?: number;
      }>;
    };
    const out: { name: string; html: string }[] = [];
    for (const n of nodes) {
      if (n.ignored || n.role?.value !== "button") continue;
      const name = String(n.name?.value ?? "").trim();
      let html = "";
      if (!name && n.backendDOMNodeId) {
        const { outerHTML } = await cdp.send("DOM.getOuterHTML", {
          backendNodeId: n.backendDOMNodeId,
        }) as { outerHTML: string };
        html = outerHTML.slice(0, 200);
      }
      out.push({ name, html });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

browserTest(
  "a streamed answer is announced once, when it settles, in a log that is not live",
  async () => {
    const f = await transcriptFixture();
    const { page, h } = f;
    try {
      await f.open();
      const log = page.getByRole("log", { name: "Conversation" });
      strictEqual(await log.count(), 1, "the transcript is a log region");
      strictEqual(await log.getAttribute("aria-live"), "off", "its streaming is not read out");

      await recordRegion(page, "polite");
      await recordRegion(page, "assertive");
      const words = Array.from({ length: 40 }, (_, i) => `word${i + 1} `);
      await h.fake.enqueue(
        { toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] },
        { text: words, delayMs: 25 },
      );
      await Deno.writeTextFile(`${h.workspace}/notes.txt`, "hello\n");
      await f.send("Read my notes");
      await f.settled();
      // The announcement is written when the run ends: give it a moment to land.
      await page.waitForFunction(() =>
        document.querySelector('[data-announce="polite"]')?.textContent?.includes("word")
      );
      const said = await regionLog(page, "polite");
      ok(said.length >= 1 && said.length <= 2, `one announcement, not per token: ${said.length}`);
      const last = said.at(-1)!;
      ok(last.startsWith("Answer finished: word1 word2"), `the settled answer: ${last}`);
      ok(last.length <= 230, "only its start is read");
      strictEqual((await regionLog(page, "assertive")).length, 0, "nothing urgent was said");

      // The finished turn as a screen reader meets it: the activity names its tool, whose card
      // says its status in words; the answer's text is there.
      const turn = page.locator(".turns-live .turn").last();
      await turn.locator("details.activity > summary").click();
      const tree = await turn.ariaSnapshot();
      console.log(tree);
      ok(/button "[^"]*read_file[^"]*done/i.test(tree), "the tool card names its status in words");
      ok(tree.includes("word40"), "the answer is in the tree");
      ok(/group "Actions[^"]*"|button "Copy/.test(tree), "the answer's actions have names");
      await f.browser.screenshot(page, "sr-finished-turn");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest(
  "an approval is announced assertively and its card reads as a dialog with named choices",
  async () => {
    const f = await transcriptFixture();
    const { page, h } = f;
    try {
      await f.open();
      await recordRegion(page, "assertive");
      await h.fake.enqueue(
        { toolCalls: [{ name: "terminal", args: { command: "rm -rf build/" } }] },
        { text: "Removed it." },
      );
      await f.send("Clean the build folder");
      const card = page.locator(".approval-card");
      await card.waitFor();
      await page.waitForFunction(() =>
        (document.querySelector('[data-announce="assertive"]')?.textContent ?? "") !== ""
      );
      const said = await regionLog(page, "assertive");
      strictEqual(said.length, 1, `announced once: ${JSON.stringify(said)}`);
      strictEqual(said[0], "Needs your approval");

      const tree = await card.ariaSnapshot();
      console.log(tree);
      ok(/alertdialog "[^"]+"/.test(tree), "the card is a named alert dialog");
      ok(tree.includes("rm -rf build/"), "the command is read");
      ok(/button "Allow once[^"]*"/.test(tree), "Allow once");
      ok(/button "Deny…?"/.test(tree), "Deny");
      // The waiting tool says so in words in the turn's activity.
      const turn = page.locator(".turns-live .turn").last();
      await turn.locator("details.activity > summary").click();
      const turnTree = await turn.ariaSnapshot();
      ok(/needs approval/i.test(turnTree), `the tool's status in words:\n${turnTree}`);
      await f.browser.screenshot(page, "sr-approval-card");

      // A message sent while the run waits is queued, and that is said politely.
      await recordRegion(page, "polite");
      await h.fake.enqueue({ text: "The rest is listed." });
      await f.send("Then list what is left");
      await page.waitForFunction(() =>
        document.querySelector('[data-announce="polite"]')?.textContent?.startsWith(
          "Message queued",
        )
      );
      strictEqual(
        (await regionLog(page, "polite")).at(-1),
        "Message queued. It is sent when the answer finishes.",
      );

      // Allowed: the run finishes and is announced; then the queued message runs and is too.
      await card.locator('[data-choice="once"]').click();
      await page.waitForFunction(() =>
        document.querySelector('[data-announce="polite"]')?.textContent?.includes(
          "rest is listed",
        )
      );
      const polite = await regionLog(page, "polite");
      ok(polite.includes("Answer finished: Removed it."), JSON.stringify(polite));
      strictEqual(polite.at(-1), "Answer finished: The rest is listed.");
      strictEqual((await regionLog(page, "assertive")).length, 1, "nothing else was urgent");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest("a failed run is announced once, assertively, with what went wrong", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await f.open();
    await recordRegion(page, "polite");
    await recordRegion(page, "assertive");
    await h.fake.enqueue({ status: 401, error: { message: "Invalid API key" } });
    await f.send("Hello?");
    await page.waitForFunction(() =>
      (document.querySelector('[data-announce="assertive"]')?.textContent ?? "") !== ""
    );
    const said = await regionLog(page, "assertive");
    strictEqual(said.length, 1, JSON.stringify(said));
    ok(said[0].startsWith("The run failed: "), said[0]);
    const notice = page.locator(".turns-live .turn-notice").last();
    const title = await notice.locator(".turn-notice-title").textContent();
    const message = await notice.locator(".turn-notice-message").textContent();
    strictEqual(said[0], `The run failed: ${title}. ${message}`, "the notice, read at once");
    strictEqual((await regionLog(page, "polite")).length, 0, "no answer to announce");
    await f.browser.screenshot(page, "sr-failed-run");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("the page has its landmarks, one h1, and a name on every button", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await h.fake.enqueue({ text: "Here is **bold** and `code`." });
    await f.open();
    await f.send("Say something");
    await f.settled();

    strictEqual(await page.getByRole("navigation", { name: "Chats" }).count(), 1, "navigation");
    strictEqual(await page.getByRole("main").count(), 1, "main");
    strictEqual(await page.getByRole("heading", { level: 1 }).count(), 1, "one h1");
    const panel = page.getByRole("complementary", { name: "Workspace files" });
    strictEqual(await panel.count(), 0, "no complementary landmark while the panel is closed");
    await page.getByRole("button", { name: "Show workspace files" }).click();
    await panel.waitFor();
    strictEqual(await panel.count(), 1, "complementary when the panel is open");

    const buttons = await buttonNames(page);
    ok(buttons.length > 10, `the page's buttons were found: ${buttons.length}`);
    const nameless = buttons.filter((b) => !b.name);
    strictEqual(nameless.length, 0, `buttons without a name:\n${nameless.map((b) => b.html)}`);
    await f.browser.screenshot(page, "sr-landmarks-panel-open");

    // The empty state (a new chat) too.
    await page.goto(`${h.url}/`);
    await page.getByRole("main").waitFor();
    strictEqual(await page.getByRole("heading", { level: 1 }).count(), 1, "one h1 when empty");
    const emptyNameless = (await buttonNames(page)).filter((b) => !b.name);
    strictEqual(emptyNameless.length, 0, `nameless:\n${emptyNameless.map((b) => b.html)}`);
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});
