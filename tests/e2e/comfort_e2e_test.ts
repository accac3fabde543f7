// The comfort features in Chromium. Shortcuts, keyboard only: Ctrl+/ focuses the composer,
// Ctrl+B hides and shows the sidebar (kept across a reload; a drawer on phones), `?` opens the
// shortcuts dialog (never from the composer) and Esc closes it with focus back, Ctrl+, opens
// the Control Center, Ctrl+Shift+O a new chat. Appearance: a skin and a text size change the
// computed styles at once and stay after a reload. With the tab hidden (visibility emulated,
// Notification stubbed), a run that needs an approval raises a notification with the chat's
// title only, prefixes the tab title and swaps the favicon; answering restores both; a run in
// another chat that finishes notifies, and a click on it opens that chat.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { browserTest, type Page, waitForIslands } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const active = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return a?.id || a?.className || a?.tagName || "";
  });
const rootAttr = (page: Page, name: string) =>
  page.evaluate((n) => document.documentElement.getAttribute(n), name);
/** Shortcut actions load on first use: wait for what a key does rather than read it at once. */
const until = (page: Page, fn: () => boolean) => page.waitForFunction(fn);
const composerFocused = (page: Page) =>
  until(page, () => document.activeElement?.id === "composer-input");
const blur = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

browserTest("shortcuts work from the keyboard alone (desktop)", async () => {
  const f = await transcriptFixture({ width: 1280, height: 800 });
  const { page, h } = f;
  try {
    h.fake.enqueue({ text: "Hello." });
    await h.stream((await h.start("hi")).stream_id);
    await f.open();

    // Ctrl+/ focuses the composer from anywhere.
    await blur(page);
    await page.keyboard.press("Control+/");
    await composerFocused(page);

    // Ctrl+B hides the sidebar, even from the composer; the conversation takes the room.
    const sidebar = page.locator("nav.sidebar");
    const width = () => sidebar.evaluate((el) => el.getBoundingClientRect().width);
    ok((await width()) > 200);
    await page.keyboard.press("Control+b");
    await until(page, () => document.documentElement.hasAttribute("data-sidebar-hidden"));
    strictEqual(await sidebar.evaluate((el) => getComputedStyle(el).visibility), "hidden");
    strictEqual(await width(), 0);
    strictEqual(await active(page), "composer-input", "Ctrl+B typed nothing");
    strictEqual(await page.locator("#composer-input").inputValue(), "");
    await page.locator(".topbar-drawer-btn").waitFor({ state: "visible" });
    // The server paints it hidden after a reload (the cookie), so it never flashes back.
    const again = await page.reload();
    ok(/<html[^>]*data-sidebar-hidden/.test(await again!.text()));
    await waitForIslands(page);
    strictEqual(await width(), 0);
    await blur(page);
    await page.keyboard.press("Control+b");
    await until(page, () => !document.documentElement.hasAttribute("data-sidebar-hidden"));
    ok((await width()) > 200);

    // `?` opens the shortcuts list (loaded on demand); Esc closes it and focus comes back.
    await page.locator("a.btn-new-chat").focus();
    await page.keyboard.press("?");
    const dialog = page.locator("dialog[data-shortcuts]");
    await dialog.waitFor();
    strictEqual(await dialog.locator(".dialog-title").textContent(), "Keyboard shortcuts");
    const rows = await dialog.locator("dd").evaluateAll((dds) =>
      dds.map((dd) => [...dd.querySelectorAll("kbd")].map((k) => k.textContent).join("+"))
    );
    deepStrictEqual(rows, ["Ctrl+Shift+O", "Ctrl+K", "Ctrl+B", "Ctrl+,", "Ctrl+/", "Esc", "?"]);
    await f.browser.screenshot(page, "shortcuts-dialog-desktop");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    strictEqual(await active(page), "btn btn-new-chat", "focus went back");

    // `?` typed in the composer is just a question mark.
    await page.keyboard.press("Control+/");
    await composerFocused(page);
    await page.keyboard.press("?");
    strictEqual(await page.locator("#composer-input").inputValue(), "?");
    strictEqual(await dialog.count(), 0);
    await page.locator("#composer-input").fill("");

    // Ctrl+, opens the Control Center; Esc closes it.
    await page.keyboard.press("Control+,");
    await page.waitForSelector('[data-cc-dialog][role="dialog"]');
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-cc-dialog]", { state: "detached" });

    // Ctrl+Shift+O starts a new chat, ready to type.
    await page.keyboard.press("Control+Shift+O");
    await page.waitForURL((u) => !u.searchParams.has("session"));
    await waitForIslands(page);
    await page.waitForFunction(() => document.activeElement?.id === "composer-input");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("Ctrl+B opens and closes the drawer on a phone", async () => {
  const f = await transcriptFixture({ width: 390, height: 844 });
  const { page } = f;
  try {
    await f.open();
    await blur(page);
    await page.keyboard.press("Control+b");
    await page.waitForSelector('.app[data-drawer="open"]');
    strictEqual(await rootAttr(page, "data-sidebar-hidden"), null, "phones keep their drawer");
    await page.keyboard.press("Control+b");
    await page.waitForSelector('.app[data-drawer="closed"]');
    await page.keyboard.press("?");
    await page.locator("dialog[data-shortcuts]").waitFor();
    await f.browser.screenshot(page, "shortcuts-dialog-phone");
    await page.keyboard.press("Escape");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("a skin and a text size apply at once and stay after a reload", async () => {
  const f = await transcriptFixture({ width: 1280, height: 800 });
  const { page, h } = f;
  try {
    await h.call("POST", "/api/settings", { theme: "dark" });
    await f.open();
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const composerSize = () =>
      page.locator("#composer-input").evaluate((el) => getComputedStyle(el).fontSize);
    strictEqual(await bg(), "rgb(10, 9, 8)");
    const before = await composerSize();

    await page.keyboard.press("Control+,");
    await page.locator('[data-cc-tab="appearance"]').click();
    await page.locator('[data-skin-option="sepia"]').click();
    strictEqual(await rootAttr(page, "data-skin"), "sepia");
    strictEqual(await bg(), "rgb(22, 18, 14)", "the sepia ink field, without a reload");
    await page.locator('[data-font-size-option="large"]').click();
    strictEqual(await rootAttr(page, "data-font-size"), "large");
    ok(parseFloat(await composerSize()) > parseFloat(before), "the text grew");
    await page.locator('[data-cc-status="display"]', { hasText: "Saved." }).waitFor();

    // The light theme under the same skin: its paper, not DESIGN.md's parchment.
    await page.locator('[data-theme-option="light"]').click();
    strictEqual(await bg(), "rgb(240, 229, 208)");
    await page.locator('[data-skin-option="default"]').click();
    strictEqual(await rootAttr(page, "data-skin"), null);
    strictEqual(await bg(), "rgb(234, 224, 213)");
    await page.locator('[data-skin-option="contrast"]').click();
    strictEqual(await bg(), "rgb(255, 255, 255)");

    const settings = await h.call("GET", "/api/settings");
    strictEqual(settings.body.skin, "contrast");
    strictEqual(settings.body.font_size, "large");
    const again = await page.reload();
    ok(/<html[^>]*data-skin="contrast"[^>]*data-font-size="large"/.test(await again!.text()));
    strictEqual(await bg(), "rgb(255, 255, 255)");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

/** Emulate a hidden tab and record notifications (before any page script runs). */
const STUBS = () => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true,
    get: () => (hidden ? "hidden" : "visible"),
  });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  const w = window as unknown as Record<string, unknown>;
  w.__setHidden = (on: boolean) => {
    hidden = on;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  const notes: Array<Record<string, unknown>> = [];
  w.__notes = notes;
  class FakeNotification {
    static permission = "default";
    static requestPermission() {
      FakeNotification.permission = "granted";
      return Promise.resolve("granted");
    }
    onclick: (() => void) | null = null;
    constructor(title: string, opts: { body?: string; tag?: string } = {}) {
      notes.push({ title, body: opts.body, tag: opts.tag, note: this });
    }
    close() {}
  }
  w.Notification = FakeNotification;
  // The chime: count the notes started (Web Audio, no file).
  const chimes: number[] = [];
  w.__chimes = chimes;
  class FakeAudioContext {
    currentTime = 0;
    destination = {};
    createGain() {
      return { connect() {}, gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } };
    }
    createOscillator() {
      return {
        type: "",
        frequency: { value: 0 },
        connect() {},
        start() {
          chimes.push(Date.now());
        },
        stop() {},
      };
    }
    close() {
      return Promise.resolve();
    }
  }
  w.AudioContext = FakeAudioContext;
};

browserTest("a hidden tab: notified, titled and badged while a chat needs you", async () => {
  const f = await transcriptFixture({ width: 1280, height: 800 });
  const { page, h } = f;
  try {
    await page.addInitScript(STUBS);
    h.fake.enqueue({ text: "Ready." });
    await h.stream((await h.start("hi")).stream_id);
    await h.call("POST", "/api/session/rename", { session_id: h.sessionId, title: "Tidy up" });
    const other = await h.newSession();
    h.fake.enqueue({ text: "ok" });
    await h.stream(
      (await h.call("POST", "/api/chat/start", { session_id: other, message: "hello" })).body
        .stream_id,
    );
    await h.call("POST", "/api/session/rename", { session_id: other, title: "Release notes" });
    await f.open();
    const baseTitle = await page.title();
    strictEqual(baseTitle, "Tidy up · Hermes Console");
    const favicon = () => page.locator('link[rel="icon"]').getAttribute("href");

    // Turned on from Appearance: the permission is asked from that click, then saved.
    await page.keyboard.press("Control+,");
    await page.locator('[data-cc-tab="appearance"]').click();
    await page.locator('[data-display-setting="notifications_enabled"]').locator("..").click();
    await page.locator('[data-cc-status="notify"]', { hasText: "Notifications are on." })
      .waitFor();
    strictEqual((await h.call("GET", "/api/settings")).body.notifications_enabled, true);
    // …and the optional chime with it.
    await page.locator('[data-display-setting="sound_enabled"]').locator("..").click();
    await page.locator('[data-cc-status="notify"]', { hasText: "The chime is on." }).waitFor();
    strictEqual((await h.call("GET", "/api/settings")).body.sound_enabled, true);
    await page.keyboard.press("Escape");

    // Hidden: a run asks for an approval.
    await page.evaluate(() =>
      (window as unknown as { __setHidden(b: boolean): void }).__setHidden(true)
    );
    h.fake.enqueue(
      { toolCalls: [{ name: "terminal", args: { command: "rm -rf build" } }] },
      { text: "Left it." },
    );
    await f.send("please remove the build folder");
    await page.waitForFunction(() => document.title.startsWith("● Needs you · "));
    strictEqual(await page.title(), `● Needs you · ${baseTitle}`);
    strictEqual(await favicon(), "/static/favicon-alert.svg");
    const notes = () =>
      page.evaluate(() =>
        (window as unknown as { __notes: Array<Record<string, unknown>> }).__notes.map((
          { title, body, tag },
        ) => ({ title, body, tag }))
      );
    await page.waitForFunction(() => (window as unknown as { __notes: unknown[] }).__notes.length);
    deepStrictEqual(await notes(), [{
      title: "Approval needed",
      body: "Tidy up",
      tag: `hermes-wait-${h.sessionId}`,
    }]);
    await page.waitForFunction(() =>
      (window as unknown as { __chimes: unknown[] }).__chimes.length >= 2
    );
    await f.browser.screenshot(page, "needs-you-approval");

    // Back on the tab, answering restores the title and the favicon; a finish seen is no news.
    await page.evaluate(() =>
      (window as unknown as { __setHidden(b: boolean): void }).__setHidden(false)
    );
    await page.locator(".approval-card [data-choice='deny-open']").click();
    await page.locator(".approval-card [data-choice='deny']").click();
    await page.waitForFunction((t) => document.title === t, baseTitle);
    strictEqual(await favicon(), "/static/favicon.svg");
    await f.settled();

    // Hidden again: a run in another chat finishes; the notification opens that chat.
    await page.evaluate(() =>
      (window as unknown as { __setHidden(b: boolean): void }).__setHidden(true)
    );
    h.fake.enqueue({ text: "a slower answer ".repeat(20), delayMs: 150 });
    const run = await h.call("POST", "/api/chat/start", { session_id: other, message: "more" });
    await page.waitForFunction(() =>
      (window as unknown as { __notes: Array<{ title: string }> }).__notes.some((n) =>
        n.title === "Run finished"
      )
    );
    await h.stream(run.body.stream_id);
    deepStrictEqual((await notes()).at(-1), {
      title: "Run finished",
      body: "Release notes",
      tag: `hermes-end-${run.body.stream_id}`,
    });
    strictEqual((await notes()).length, 2, "nothing else was announced");
    await page.evaluate(() => {
      const n = (window as unknown as { __notes: Array<{ note: { onclick(): void } }> }).__notes;
      n.at(-1)!.note.onclick();
    });
    await page.waitForURL(new RegExp(`session=${other}`));
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});
