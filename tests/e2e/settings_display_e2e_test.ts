// The transcript's display settings in Chromium, each group switched in the Control Center
// (Appearance › Conversation display) and checked in the page at once, then after a reload:
// token and speed badges (never a speed from estimated counts), the Activity display modes and
// Compact tool activity, terminal output opening its card, the outline and the start/end
// buttons, user messages as markdown (inert), streamed text fading in, following new output,
// endless scrolling and the busy composer hint. Screenshots (both themes, desktop and phone) go
// to /tmp/shots/settings_a when that folder exists.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest, type Page, screenshotThemes } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { appendMessages, type NewMessage } from "../../lib/sessions/messages.ts";
import { withAppInBrowser } from "./browser.ts";
import { waitForIslands } from "./browser.ts";

const SHOTS = "/tmp/shots/settings_a";

/** Open the Control Center on Appearance. */
async function openAppearance(page: Page): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector('[data-cc-dialog][role="dialog"]');
  await page.locator('[data-cc-tab="appearance"]').click();
  await page.locator('[data-cc-block="transcript-display"]').waitFor();
}

/**
 * Switch `key` in the Control Center (a radio when `value` is given) and wait until the page
 * shows the change on <html> (`attr` present or absent), then close the dialog.
 */
async function switchInCC(
  page: Page,
  key: string,
  attr: string,
  present: boolean,
  value?: string,
): Promise<void> {
  await openAppearance(page);
  const sel = value === undefined
    ? `[data-transcript-setting="${key}"]`
    : `[data-transcript-setting="${key}"][value="${value}"]`;
  await page.locator(sel).click({ force: true });
  // A choice (`value`) waits for its own value: the attribute may already be there, set by the
  // previous choice.
  await page.waitForFunction(
    ([attr, present, value]) => {
      const html = document.documentElement;
      if (html.hasAttribute(attr as string) !== present) return false;
      return !present || value === undefined || value === "compact_worklog" ||
        html.getAttribute(attr as string) === value;
    },
    [attr, present, value] as const,
  );
  await page.keyboard.press("Escape");
  await page.waitForSelector("[data-cc-layer]", { state: "hidden" });
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await waitForIslands(page);
}

/** How far the transcript is from its end, in pixels. */
const fromEnd = (page: Page) =>
  page.locator(".transcript").evaluate((s) =>
    getComputedStyle(s).flexDirection === "column-reverse"
      ? Math.abs(s.scrollTop)
      : s.scrollHeight - s.clientHeight - s.scrollTop
  );

browserTest(
  "token and speed badges: live, after a reload, none from estimated counts",
  async () => {
    const f = await transcriptFixture({ width: 1440, height: 900 });
    const { page, h } = f;
    try {
      await f.open();
      h.fake.enqueue({
        text: "A measured answer with enough words to be timed. ".repeat(6),
        chunkSize: 8,
        delayMs: 15,
        usage: { input_tokens: 1234, output_tokens: 340 },
      });
      await f.send("measure me");
      await f.settled();
      strictEqual(await page.locator(".turn-badges").count(), 0, "off by default");

      await switchInCC(page, "show_token_usage", "data-show-token-usage", true);
      const tokens = page.locator('.turn-badge[data-badge="tokens"]');
      await tokens.waitFor();
      strictEqual(await tokens.textContent(), "1.2k in · 340 out");
      strictEqual(await page.locator('.turn-badge[data-badge="tps"]').count(), 0);

      await switchInCC(page, "show_tps", "data-show-tps", true);
      const tps = page.locator('.turn-badge[data-badge="tps"]');
      await tps.waitFor();
      ok(/^[\d.,]+ tok\/s$/.test((await tps.textContent())!), await tps.textContent() ?? "");

      // A provider that reports no usage: the counts are marked, and no speed is made up.
      h.fake.enqueue({
        text: "Unmetered words. ".repeat(8),
        chunkSize: 6,
        delayMs: 15,
        noUsage: true,
      });
      await f.send("estimate me");
      await f.settled();
      const last = page.locator(".turn").last();
      await last.locator('.turn-badge[data-badge="tokens"][data-estimated]').waitFor();
      ok((await last.locator('.turn-badge[data-badge="tokens"]').textContent())!.startsWith("~"));
      strictEqual(await last.locator('.turn-badge[data-badge="tps"]').count(), 0);

      await reload(page);
      await page.locator('.turn-badge[data-badge="tokens"]').first().waitFor();
      strictEqual(await page.locator('.turn-badge[data-badge="tokens"]').count(), 2);
      strictEqual(await page.locator('.turn-badge[data-badge="tps"]').count(), 1);
      await screenshotThemes(page, SHOTS, "badges-desktop");

      await switchInCC(page, "show_token_usage", "data-show-token-usage", false);
      strictEqual(await page.locator('.turn-badge[data-badge="tokens"]').count(), 0);
      strictEqual(await page.locator('.turn-badge[data-badge="tps"]').count(), 1);
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

const terminal = (command: string) => ({ name: "terminal", args: { command } });

browserTest("Activity display modes, Compact tool activity and terminal auto-expand", async () => {
  const f = await transcriptFixture({ width: 1440, height: 900 });
  const { page, h } = f;
  try {
    await f.open();
    h.fake.enqueue(
      { reasoning: "List first.", text: "Looking.", toolCalls: [terminal("echo hello")] },
      { text: "Done: it printed hello." },
    );
    await f.send("say hello in the shell");
    await f.settled();
    await page.locator("details.activity:not([open])").waitFor();

    // Transparent stream: every step in the flow, no disclosure.
    await switchInCC(
      page,
      "chat_activity_display_mode",
      "data-activity-mode",
      true,
      "transparent_stream",
    );
    await page.locator('details.activity[open][data-mode="transparent"]').waitFor();
    ok(!(await page.locator("details.activity > summary").isVisible()), "no summary row");
    ok(await page.locator(".activity .tool-card").first().isVisible(), "tool card in the flow");
    await reload(page);
    await page.locator('details.activity[open][data-mode="transparent"]').waitFor();
    await screenshotThemes(page, SHOTS, "activity-transparent-desktop");

    // Final answer only: no Activity at all, the answer stays.
    await switchInCC(
      page,
      "chat_activity_display_mode",
      "data-activity-mode",
      true,
      "hide_all_activity",
    );
    ok(!(await page.locator(".activity-row").isVisible()), "Activity hidden");
    ok(await page.getByText("Done: it printed hello.").isVisible());
    await reload(page);
    ok(!(await page.locator(".activity-row").isVisible()), "still hidden after a reload");

    // Back to the compact worklog, then Compact tool activity off: each turn starts open.
    await switchInCC(
      page,
      "chat_activity_display_mode",
      "data-activity-mode",
      false,
      "compact_worklog",
    );
    await page.locator("details.activity:not([open])").waitFor();
    await switchInCC(page, "simplified_tool_calling", "data-expanded-tools", true);
    await page.locator("details.activity[open]").waitFor();
    await reload(page);
    await page.locator("details.activity[open]").waitFor();
    await switchInCC(page, "simplified_tool_calling", "data-expanded-tools", false);
    await page.locator("details.activity:not([open])").waitFor();

    // Terminal output opens its card (and its Activity) as it arrives, live.
    await switchInCC(
      page,
      "terminal_auto_expand_on_output",
      "data-terminal-auto-expand",
      true,
    );
    await reload(page);
    h.fake.enqueue(
      { text: "Running it.", toolCalls: [terminal("echo again")] },
      { text: "It printed again." },
    );
    await f.send("once more");
    await f.settled();
    const live = page.locator(".turns-live .turn").last();
    await live.locator("details.activity[open]").waitFor();
    await live.locator('.tool-card[data-tool="terminal"][data-open]').waitFor();
    ok((await live.locator(".tool-result").textContent())!.includes("again"));
    // History keeps its cards folded: only output arriving opens one.
    strictEqual(
      await page.locator('#transcript-history .tool-card[data-tool="terminal"][data-open]').count(),
      0,
    );
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("conversation outline and start/end jump buttons", async () => {
  const f = await transcriptFixture({ width: 1440, height: 900 });
  const { page, h } = f;
  try {
    await f.open();
    for (const q of ["First question", "Second question", "Third question"]) {
      h.fake.enqueue({ text: `${q}: answered.\n\n` + "More detail. ".repeat(60) });
      await f.send(q);
      await f.settled();
    }
    strictEqual(await page.locator("[data-outline]").count(), 0, "off by default");
    await switchInCC(page, "show_conversation_outline", "data-show-outline", true);
    const items = page.locator("[data-outline] .tx-outline-item");
    await items.nth(2).waitFor();
    strictEqual(await items.count(), 3);
    ok((await items.nth(0).textContent())!.includes("First question"));
    await items.nth(0).click();
    await page.waitForFunction(() => {
      const first = [...document.querySelectorAll(".turn")].find((t) =>
        t.querySelector(".msg-user-bubble")?.textContent?.includes("First question")
      )!;
      const s = document.querySelector(".transcript")!.getBoundingClientRect();
      const r = first.getBoundingClientRect();
      return r.top >= s.top - 2 && r.top < s.top + 80;
    });

    strictEqual(await page.locator("[data-session-jumps]").count(), 0, "off by default");
    await switchInCC(page, "session_jump_buttons", "data-session-jump", true);
    await page.locator('[data-session-jump="end"]').click();
    await page.waitForFunction(() => {
      const s = document.querySelector(".transcript")!;
      return Math.abs(s.scrollTop) < 2;
    });
    await page.locator('[data-session-jump="start"]').click();
    await page.waitForFunction(() => {
      const s = document.querySelector(".transcript")!;
      return Math.abs(s.scrollTop) > s.scrollHeight - s.clientHeight - 2;
    });

    await reload(page);
    await items.nth(2).waitFor();
    await page.locator('[data-session-jump="start"]').waitFor();
    await screenshotThemes(page, SHOTS, "outline-jumps-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    ok(!(await page.locator("[data-outline]").isVisible()), "the outline is a wide-screen aid");
    ok(await page.locator('[data-session-jump="end"]').isVisible(), "jump buttons on phones");
    await screenshotThemes(page, SHOTS, "outline-jumps-phone");
    await page.setViewportSize({ width: 1440, height: 900 });

    await switchInCC(page, "show_conversation_outline", "data-show-outline", false);
    await switchInCC(page, "session_jump_buttons", "data-session-jump", false);
    strictEqual(await page.locator("[data-outline], [data-session-jumps]").count(), 0);
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("user messages as markdown: rendered and inert, live and after a reload", async () => {
  const f = await transcriptFixture({ width: 1440, height: 900 });
  const { page, h } = f;
  try {
    await f.open();
    h.fake.enqueue({ text: "Noted." });
    await f.send("**bold** and `code` <img src=x onerror=alert(1)>\n\n- one\n- two");
    await f.settled();
    const bubble = page.locator(".msg-user-bubble").last();
    ok((await bubble.textContent())!.includes("**bold**"), "plain text by default");
    strictEqual(await bubble.locator("strong").count(), 0);

    await switchInCC(page, "render_user_markdown", "data-user-markdown", true);
    await bubble.locator("strong").waitFor();
    strictEqual(await bubble.locator("strong").textContent(), "bold");
    strictEqual(await bubble.locator("code").textContent(), "code");
    strictEqual(await bubble.locator("li").count(), 2);
    strictEqual(await bubble.locator("img").count(), 0, "raw HTML stays text");
    ok((await bubble.textContent())!.includes("<img"));

    await reload(page);
    await page.locator(".msg-user-bubble strong").waitFor();
    strictEqual(await page.locator(".msg-user-bubble img").count(), 0);
    await screenshotThemes(page, SHOTS, "user-markdown-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshotThemes(page, SHOTS, "user-markdown-phone");
    await page.setViewportSize({ width: 1440, height: 900 });

    await switchInCC(page, "render_user_markdown", "data-user-markdown", false);
    await page.waitForFunction(() =>
      document.querySelectorAll(".msg-user-bubble strong").length === 0
    );
    ok((await page.locator(".msg-user-bubble").last().textContent())!.includes("**bold**"));
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("streamed text fades in only with the setting on", async () => {
  const f = await transcriptFixture({ width: 1440, height: 900 });
  const { page, h } = f;
  try {
    await f.open();
    const slow = () => ({ text: "word ".repeat(60), chunkSize: 5, delayMs: 25 });
    h.fake.enqueue(slow());
    await f.send("stream without fading");
    let faded = false;
    while (!faded && await page.locator(".turns-live .turn[data-live]").count()) {
      faded = await page.locator(".fade-in").count() > 0;
      await page.waitForTimeout(50);
    }
    await f.settled();
    ok(!faded, "no fading by default");

    await switchInCC(page, "fade_text_effect", "data-fade-text", true);
    h.fake.enqueue(slow());
    await f.send("stream with fading");
    await page.locator(".turns-live .msg-assistant .fade-in").first().waitFor();
    await f.settled();
    strictEqual(await page.locator(".fade-in").count(), 0, "a settled answer keeps no spans");

    await reload(page);
    h.fake.enqueue(slow());
    await f.send("after a reload");
    await page.locator(".turns-live .msg-assistant .fade-in").first().waitFor();
    await f.settled();
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("following new output, the busy hint: live and after a reload", async () => {
  const f = await transcriptFixture({ width: 1440, height: 900 });
  const { page, h } = f;
  try {
    await f.open();
    h.fake.enqueue({ text: "line of the answer\n\n".repeat(40) });
    await f.send("a long answer first");
    await f.settled();
    const placeholder = await page.locator("#composer-input").getAttribute("placeholder");

    // Following (the default): the end stays in view while an answer streams.
    let release = () => {};
    h.fake.enqueue({
      text: "streamed line\n\n".repeat(30),
      chunkSize: 15,
      hang: 12,
      release: new Promise((r) => release = () => r(undefined)),
    });
    await f.send("follow this");
    await page.locator(".turns-live .turn").last().getByText("streamed line").first().waitFor();
    ok(await fromEnd(page) < 120, "followed");
    strictEqual(
      await page.locator("#composer-input").getAttribute("placeholder"),
      placeholder,
      "no busy hint by default",
    );
    release();
    await f.settled();

    // Off: the page stays where the answer began, and offers the way down.
    await switchInCC(page, "auto_scroll_follow", "data-no-auto-follow", true);
    await switchInCC(page, "show_busy_placeholder_hint", "data-busy-hint", true);
    const stay = async () => {
      let go = () => {};
      h.fake.enqueue({
        text: "streamed line\n\n".repeat(40),
        chunkSize: 15,
        hang: 30,
        release: new Promise((r) => go = () => r(undefined)),
      });
      await f.send("do not follow");
      await page.waitForFunction(() =>
        (document.querySelector(".turns-live .turn:last-child .msg-assistant")?.textContent ?? "")
          .split("streamed line").length > 20
      );
      ok(await fromEnd(page) > 120, `not followed (${await fromEnd(page)}px from the end)`);
      await page.locator("[data-jump-latest]").waitFor();
      ok(
        await page.evaluate(() => {
          const msg = [...document.querySelectorAll(".turns-live .turn")].at(-1)!
            .querySelector(".msg-user")!.getBoundingClientRect();
          const box = document.querySelector(".transcript")!.getBoundingClientRect();
          return msg.top >= box.top - 1 && msg.bottom <= box.bottom + 1;
        }),
        "the new message is shown where its answer began",
      );
      strictEqual(
        await page.locator("#composer-input").getAttribute("placeholder"),
        "Enter queues your message · /steer · /interrupt · /background",
      );
      go();
      await f.settled();
      await page.waitForFunction(
        (p) => document.querySelector("#composer-input")?.getAttribute("placeholder") === p,
        placeholder,
      );
    };
    await stay();
    await reload(page);
    await stay();
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

function manyTurns(n: number): NewMessage[] {
  const out: NewMessage[] = [];
  for (let i = 0; i < n; i++) {
    out.push({ role: "user", content: `Question ${i}`, turn_id: `t${i}` });
    out.push({ role: "assistant", content: `Answer ${i}.`, turn_id: `t${i}` });
  }
  return out;
}

browserTest("endless scrolling loads older turns only when it is on", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const s = await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace });
    await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, manyTurns(80));
    const page = await browser.newPage({ width: 1440, height: 900 });
    await page.goto(`${url}/?session=${s.session_id}`);
    await waitForIslands(page);
    const turns = () => page.locator(".turn").count();
    const toTop = () =>
      page.locator(".transcript").evaluate((el) => {
        el.scrollTop = -el.scrollHeight;
      });
    const shown = await turns();
    await toTop();
    await page.locator("#transcript-older button").waitFor();
    // Two frames and the observer's callback: nothing loads by itself.
    await page.waitForTimeout(600);
    strictEqual(await turns(), shown, "off: scrolling up loads nothing");
    await page.locator("#transcript-older button").click();
    await page.waitForFunction((n) => document.querySelectorAll(".turn").length > n, shown);

    await switchInCC(page, "session_endless_scroll", "data-endless-scroll", true);
    const before = await turns();
    await toTop();
    await page.waitForFunction((n) => document.querySelectorAll(".turn").length > n, before);

    await page.reload();
    await waitForIslands(page);
    const again = await turns();
    await toTop();
    await page.waitForFunction((n) => document.querySelectorAll(".turn").length > n, again);
    browser.assertNoErrors();
  });
});
