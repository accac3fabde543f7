// Issue 14 in a real browser, at 1440×900 and 390×844, against the real app and a scripted
// fake provider: steering and queueing while a multi-step run is busy (the note reaches the
// next model request), /btw in a dismissible panel that leaves the transcript alone,
// /background listed until it finishes, and the message actions (copy, regenerate with a
// ‹ n/m › switcher that survives a reload, fork, edit & resend, time and usage on focus).
import { deepStrictEqual, ok as assert, strictEqual } from "node:assert/strict";
import type { TestApp } from "../helpers.ts";
import { type FakeProvider, startFakeProvider } from "../fixtures/fake_provider.ts";
import {
  type BrowserHarness,
  browserTest,
  type Page,
  waitForIslands,
  withAppInBrowser,
} from "./browser.ts";

interface Ctx {
  app: TestApp;
  fake: FakeProvider;
  url: string;
  browser: BrowserHarness;
  page: Page;
  tag: string;
}

const SIZES = [
  { tag: "desktop", width: 1440, height: 900 },
  { tag: "phone", width: 390, height: 844 },
];

function issueTest(name: string, fn: (c: Ctx) => Promise<void>) {
  for (const size of SIZES) {
    browserTest(`${name} (${size.tag})`, async () => {
      const fake = startFakeProvider({ respond: () => ({ text: "Fake answer." }) });
      try {
        await withAppInBrowser({
          configYaml:
            `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n` +
            `  api_key: test-key\n`,
          tools: { bwrapPath: null },
        }, async ({ app, url, browser }) => {
          await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
            origin: url,
          });
          const page = await browser.newPage({ width: size.width, height: size.height });
          await fn({ app, fake, url, browser, page, tag: size.tag });
          browser.assertNoErrors();
        });
      } finally {
        await fake.close();
      }
    });
  }
}

async function waitIdle(c: Ctx, sid: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { body } = await c.app.call<{ session: { active_stream_id: string | null } }>(
      "GET",
      `/api/session?session_id=${sid}&messages=0`,
    );
    if (!body.session.active_stream_id) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`session ${sid} is still running`);
}

// deno-lint-ignore no-explicit-any
const userTexts = (req: any): string[] =>
  // deno-lint-ignore no-explicit-any
  (req.body.messages as any[]).filter((m) => m.role === "user").map((m) =>
    typeof m.content === "string"
      ? m.content
      // deno-lint-ignore no-explicit-any
      : (m.content as any[]).map((p) => p.text ?? "").join("")
  );

async function messagesOf(c: Ctx, sid: string) {
  const { body } = await c.app.call<
    { session: { messages: Array<{ role: string; content: string; steer?: boolean }> } }
  >("GET", `/api/session?session_id=${sid}`);
  return body.session.messages;
}

/** Start a chat from the composer; returns its session id once the page follows it. */
async function startChat(c: Ctx, text: string): Promise<string> {
  await c.page.goto(`${c.url}/`);
  await waitForIslands(c.page);
  await c.page.locator("#composer-input").fill(text);
  await c.page.keyboard.press("Enter");
  await c.page.waitForURL(/\?session=[0-9a-f]{12}$/);
  await waitForIslands(c.page);
  return new URL(c.page.url()).searchParams.get("session")!;
}

issueTest(
  "steer reaches the next model step; queued messages wait, editable and removable",
  async (c) => {
    c.fake.enqueue(
      {
        text: "Reading the workspace first. ".repeat(12),
        delayMs: 60,
        chunkSize: 6,
        toolCalls: [{ id: "call_ls", name: "list_directory", args: { path: "." } }],
      },
      { text: "Done, with tabs as asked. ".repeat(10), delayMs: 60, chunkSize: 6 },
      { text: "Queued one answered." },
    );
    const sid = await startChat(c, "Refactor the parser");
    await c.page.locator('[data-action="stop"]').waitFor();
    const send = c.page.locator(".btn-send");

    // The mode shows on the send button; /steer sets it.
    await c.page.locator("#composer-input").fill("/steer");
    await c.page.keyboard.press("Enter");
    await c.page.locator("#composer-input").fill("Use tabs, not spaces");
    strictEqual(await send.getAttribute("data-mode"), "steer");
    strictEqual((await send.textContent())?.trim(), "Steer");
    await c.browser.screenshot(c.page, `issue14-steer-mode-${c.tag}`);
    await c.page.keyboard.press("Enter");
    // (A phone's narrow footer may squeeze the flash out of sight; it is still announced.)
    await c.page.locator(".composer-flash", { hasText: "Sent to the running agent" }).waitFor({
      state: "attached",
    });

    // Queue mode: two messages wait in order; one is removed, one edited back into the draft.
    await c.page.locator(".send-mode").selectOption("queue");
    for (const t of ["First queued", "Second queued"]) {
      await c.page.locator("#composer-input").fill(t);
      await c.page.keyboard.press("Enter");
    }
    deepStrictEqual(await c.page.locator(".queued-text").allTextContents(), [
      "First queued",
      "Second queued",
    ]);
    await c.browser.screenshot(c.page, `issue14-queue-${c.tag}`);
    await c.page.locator('[data-action="remove-queued"]').nth(1).click();
    deepStrictEqual(await c.page.locator(".queued-text").allTextContents(), ["First queued"]);

    await c.fake.waitForChatRequests(3);
    const second = c.fake.chatRequests[1];
    deepStrictEqual(userTexts(second), ["Refactor the parser", "Use tabs, not spaces"]);
    assert(!userTexts(second).includes("First queued"), "a queued message waits for the end");
    await waitIdle(c, sid);
    deepStrictEqual(userTexts(c.fake.chatRequests[2]).slice(-1), ["First queued"]);
    const stored = await messagesOf(c, sid);
    assert(
      stored.some((m) => m.role === "user" && m.steer && m.content === "Use tabs, not spaces"),
    );
  },
);

issueTest("interrupt stops the answer and sends at once", async (c) => {
  c.fake.enqueue({ text: "slow ".repeat(400), delayMs: 80 }, { text: "Right away." });
  const sid = await startChat(c, "Write a long essay");
  await c.page.locator('[data-action="stop"]').waitFor();
  await c.page.locator(".send-mode").selectOption("interrupt");
  await c.page.locator("#composer-input").fill("Stop, do this instead");
  strictEqual(await c.page.locator(".btn-send").getAttribute("data-mode"), "interrupt");
  await c.page.keyboard.press("Enter");
  await c.fake.waitForChatRequests(2);
  deepStrictEqual(userTexts(c.fake.chatRequests[1]).slice(-1), ["Stop, do this instead"]);
  await waitIdle(c, sid);
});

issueTest(
  "/btw answers in a dismissible panel; /background is listed until it finishes",
  async (c) => {
    c.fake.enqueue({ text: "The parser is in src/parse.ts." });
    const sid = await startChat(c, "Where is the parser?");
    await waitIdle(c, sid);
    const before = await messagesOf(c, sid);

    c.fake.enqueue({ text: "Side answer: src/parse.ts." });
    await c.page.locator("#composer-input").fill("/btw which file again?");
    await c.page.keyboard.press("Enter");
    const panel = c.page.locator(".btw-panel");
    await panel.locator(".side-panel-answer", { hasText: "Side answer: src/parse.ts." }).waitFor();
    await c.browser.screenshot(c.page, `issue14-btw-${c.tag}`);
    deepStrictEqual(await messagesOf(c, sid), before, "the transcript is unchanged");
    await panel.locator('[data-action="dismiss-btw"]').click();
    await panel.waitFor({ state: "detached" });

    c.fake.enqueue({ text: "Audit: all good.", delayMs: 150, chunkSize: 2 });
    await c.page.locator("#composer-input").fill("/background audit the tests");
    await c.page.keyboard.press("Enter");
    const task = c.page.locator(".bg-task");
    await task.waitFor();
    strictEqual(await task.locator(".bg-task-prompt").textContent(), "audit the tests");
    await c.page.locator('.bg-task[data-status="done"] .bg-task-answer', {
      hasText: "Audit: all good.",
    }).waitFor();
    await c.browser.screenshot(c.page, `issue14-background-${c.tag}`);
    // A reload shows the same list; the parent transcript never changed.
    await c.page.reload();
    await waitForIslands(c.page);
    await c.page.locator('.bg-task[data-status="done"]').waitFor();
    deepStrictEqual(await messagesOf(c, sid), before);
  },
);

issueTest(
  "message actions: copy, regenerate and flip variants, fork, edit & resend, usage",
  async (c) => {
    c.fake.enqueue({ text: "First **answer**." });
    const sid = await startChat(c, "Explain the parser");
    await waitIdle(c, sid);
    await c.page.reload();
    await waitForIslands(c.page);

    // Focus alone reveals the row and its time and usage (nothing is hover-only).
    const answerRow = c.page.locator(".msg-actions-answer").last();
    await answerRow.locator('[data-action="copy-answer"]').focus();
    await answerRow.locator('[data-action="copy-answer"]').click();
    await answerRow.locator(".msg-action span", { hasText: "Copied" }).waitFor();
    strictEqual(await c.page.evaluate(() => navigator.clipboard.readText()), "First **answer**.");
    await answerRow.locator('[data-action="meta"]').focus();
    await c.page.waitForFunction(() =>
      /in · .* out/.test(
        [...document.querySelectorAll(".msg-actions-answer .msg-meta-text")].at(-1)?.textContent ??
          "",
      )
    );
    const userRow = c.page.locator(".msg-actions-user").last();
    await userRow.locator('[data-action="meta"]').focus();
    await c.page.waitForFunction(() =>
      /^Sent /.test(document.querySelector(".msg-actions-user .msg-meta-text")?.textContent ?? "")
    );
    await c.browser.screenshot(c.page, `issue14-actions-${c.tag}`);

    // Regenerate: the new answer shows with ‹ 2/2 ›; flipping back survives a reload.
    c.fake.enqueue({ text: "Second answer." });
    await Promise.all([
      c.page.waitForEvent("load"),
      answerRow.locator('[data-action="regenerate"]').click(),
    ]);
    await waitIdle(c, sid);
    await c.page.reload();
    await waitForIslands(c.page);
    await c.page.locator(".msg-variant-count", { hasText: "2/2" }).waitFor();
    await Promise.all([
      c.page.waitForEvent("load"),
      c.page.locator('[data-action="variant"][aria-label="Previous answer"]').click(),
    ]);
    await waitForIslands(c.page);
    await c.page.locator(".msg-variant-count", { hasText: "1/2" }).waitFor();
    assert((await c.page.locator(".turn .prose").last().textContent())?.includes("First"));
    await c.browser.screenshot(c.page, `issue14-variants-${c.tag}`);

    // Edit & resend: the message is replaced and run again.
    c.fake.enqueue({ text: "Edited answer." });
    await c.page.locator(".msg-actions-user").last().locator('[data-action="edit-user"]').click();
    await c.page.locator(".msg-edit textarea").fill("Explain the lexer");
    await Promise.all([
      c.page.waitForEvent("load"),
      c.page.locator(".msg-edit button[type=submit]").click(),
    ]);
    await waitIdle(c, sid);
    const msgs = await messagesOf(c, sid);
    deepStrictEqual(msgs.map((m) => m.content), ["Explain the lexer", "Edited answer."]);

    // Fork from the answer: a new chat holding the conversation up to here.
    await c.page.reload();
    await waitForIslands(c.page);
    await c.page.locator(".msg-actions-answer").last().locator('[data-action="fork"]').click();
    await c.page.waitForURL((u) => u.searchParams.get("session") !== sid);
    const forkId = new URL(c.page.url()).searchParams.get("session")!;
    deepStrictEqual((await messagesOf(c, forkId)).map((m) => m.content), [
      "Explain the lexer",
      "Edited answer.",
    ]);
  },
);
