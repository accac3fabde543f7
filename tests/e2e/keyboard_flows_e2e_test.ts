// Keyboard-only flows in Chromium (issue 19 §2): every flow below is driven through
// page.keyboard alone — no click, no mouse, no fill. Each Tab stop on the way must show a
// visible focus indicator (the accent outline, or the accent border of a text field), and focus
// must land back where it was when a menu, dialog, popover or card closes.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page } from "./browser.ts";
import { type TranscriptFixture, transcriptFixture } from "./transcript_harness.ts";

const terminal = (command: string) => ({ name: "terminal", args: { command } });

/**
 * How the focused element shows its focus: "outline" (a non-zero outline in the accent),
 * "border" (a text field, or the box around it, bordered in the accent), or null (invisible:
 * no indicator, or the element itself transparent, as hover-only controls are).
 */
function focusIndicator(page: Page): Promise<{ how: string | null; what: string }> {
  return page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    const what = a
      ? `${a.tagName.toLowerCase()}${a.id ? "#" + a.id : ""}.${[...a.classList].join(".")} "${
        (a.getAttribute("aria-label") ?? a.textContent ?? "").trim().slice(0, 40)
      }"`
      : "none";
    if (!a || a === document.body) return { how: null, what };
    // A see-through radio or checkbox is drawn by its card (label) or its switch track (the
    // next sibling): that is what must show the focus.
    const drawn = a instanceof HTMLInputElement && /^(radio|checkbox)$/.test(a.type) &&
        getComputedStyle(a).opacity === "0"
      ? [a.closest("label"), a.nextElementSibling, a.parentElement].find((el) =>
        el instanceof HTMLElement && getComputedStyle(el).outlineStyle !== "none"
      ) as HTMLElement | undefined ?? a.parentElement!
      : a;
    // Shown only on hover is not shown: the element and its ancestors must be opaque.
    let opacity = 1;
    for (let el: Element | null = drawn; el; el = el.parentElement) {
      opacity *= parseFloat(getComputedStyle(el).opacity);
    }
    if (opacity < 0.9 || drawn.getClientRects().length === 0) return { how: null, what };
    const accent = (() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--accent)";
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    })();
    const s = getComputedStyle(drawn);
    if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 1 && s.outlineColor === accent) {
      return { how: "outline", what };
    }
    // A text field shows focus by its own accent border or its box's (the composer's).
    for (let el: HTMLElement | null = a, i = 0; el && i < 4; el = el.parentElement, i++) {
      const b = getComputedStyle(el);
      if (
        [b.borderTopColor, b.borderBottomColor].includes(accent) &&
        parseFloat(b.borderTopWidth) >= 1
      ) return { how: "border", what };
      if (b.boxShadow !== "none" && b.boxShadow.includes(accent)) return { how: "border", what };
    }
    return { how: null, what };
  });
}

/** Assert the focused element shows its focus. */
async function assertFocusVisible(page: Page, where = ""): Promise<void> {
  let f = await focusIndicator(page);
  // A field's border eases to the accent, hover-style actions fade in: give them a moment.
  for (let i = 0; !f.how && i < 5; i++) {
    await new Promise((r) => setTimeout(r, 60));
    f = await focusIndicator(page);
  }
  ok(f.how, `focus is visible ${where}: ${f.what}`);
}

/**
 * Press Tab (Shift+Tab with `back`) until the focused element matches `selector`, asserting
 * at every stop on the way that focus is visible. Fails after `max` presses.
 */
async function tabTo(page: Page, selector: string, opts: { back?: boolean; max?: number } = {}) {
  const key = opts.back ? "Shift+Tab" : "Tab";
  for (let i = 0; i < (opts.max ?? 60); i++) {
    await page.keyboard.press(key);
    // Past the last stop, focus leaves the page for the browser's own UI (body) and wraps.
    if (await page.evaluate(() => document.activeElement === document.body)) continue;
    await assertFocusVisible(page, `(${key} toward ${selector})`);
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  const at = await focusIndicator(page);
  throw new Error(`Tab never reached ${selector} (last: ${at.what})`);
}

const activeMatches = (page: Page, selector: string) =>
  page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/**
 * Press `key` and wait (up to 2 s) for focus to move: arrow keys in the workspace menu move it a
 * frame later, and checking before then makes a loop press once too often and overshoot.
 */
async function pressAndSettle(page: Page, key: string): Promise<void> {
  await page.evaluate(() =>
    (globalThis as { __before?: Element | null }).__before = document.activeElement
  );
  await page.keyboard.press(key);
  await page.waitForFunction(
    () => document.activeElement !== (globalThis as { __before?: Element | null }).__before,
    undefined,
    { timeout: 2000 },
  ).catch(() => {});
}

/**
 * Whether focus reaches `selector`, given the moment it takes: this UI moves focus into what it
 * just rendered (a popover, a field, a card) a frame after the render, so an assertion made on
 * the render itself races it. Waits up to 10 s; false if focus never gets there.
 */
async function focusReaches(page: Page, selector: string): Promise<boolean> {
  try {
    await page.waitForFunction(
      (s) => document.activeElement?.matches(s) ?? false,
      selector,
      { timeout: 10_000 }, // generous: under a loaded CI a run's last steps take seconds
    );
    return true;
  } catch {
    // Say where focus is instead, for the failure's message.
    const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160));
    console.log(`focus never reached ${selector}; it is on ${at}`);
    return false;
  }
}

/** Type into the composer from the keyboard (Ctrl+/ focuses it) and send with Enter. */
async function sendByKeyboard(f: TranscriptFixture, text: string) {
  await f.page.keyboard.press("Control+/");
  ok(await focusReaches(f.page, "#composer-input"), "Ctrl+/ focuses the composer");
  await f.page.keyboard.type(text);
  await f.page.keyboard.press("Enter");
}

browserTest("keyboard only: start a chat, send, stop", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await f.open();
    // A new chat from the keyboard.
    await page.keyboard.press("Control+Shift+O");
    await page.waitForURL((u) => !u.searchParams.has("session"));
    await page.locator("hermes-island[data-hydrated]").first().waitFor({ state: "attached" });
    h.fake.enqueue({ text: "a very slow answer ".repeat(60), delayMs: 150 });
    await sendByKeyboard(f, "take your time");
    const stop = page.locator("button[data-action='stop']");
    await stop.waitFor();
    await page.locator(".turns-live .prose").first().waitFor();
    // Tab from the composer to Stop and press it.
    await tabTo(page, "button[data-action='stop']");
    await f.browser.screenshot(page, "keyboard-stop-focused");
    await page.keyboard.press("Enter");
    await stop.waitFor({ state: "detached" });
    ok(
      await focusReaches(page, "#composer-input"),
      "focus returns to the composer once Stop is gone",
    );
    const sid = new URL(page.url()).searchParams.get("session");
    ok(sid, "the chat got a session");
    const status = await h.call("GET", `/api/session/status?session_id=${sid}`);
    strictEqual(status.body.is_streaming, false, "the run was stopped");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest(
  "keyboard only: open Activity, read a tool card, and message actions show on focus",
  async () => {
    const f = await transcriptFixture();
    const { page, h } = f;
    try {
      await Deno.writeTextFile(join(h.workspace, "notes.txt"), "hello from notes\n");
      h.fake.enqueue({ toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] }, {
        text: "It says hello.",
      });
      await f.open();
      await sendByKeyboard(f, "Read notes.txt");
      await f.settled();
      // Back from the composer to the Activity row.
      await tabTo(page, ".activity > summary", { back: true });
      await page.keyboard.press("Enter");
      await page.locator(".activity[open]").first().waitFor();
      await tabTo(page, ".tool-head");
      await page.keyboard.press("Enter");
      const card = page.locator(".tool-card").first();
      await page.waitForFunction(() =>
        (document.querySelector(".tool-card")?.textContent ?? "").includes("hello from notes")
      );
      ok((await card.textContent())?.includes("notes.txt"));
      await f.browser.screenshot(page, "keyboard-tool-card");
      // Message actions: invisible until hovered or focused; Tab onto one shows it.
      await tabTo(page, ".msg-action");
      // (after its fade-in: the opacity transitions to 1)
      await page.waitForFunction(() =>
        getComputedStyle(document.activeElement!.closest(".msg-actions")!).opacity === "1"
      );
      await f.browser.screenshot(page, "keyboard-msg-action");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest("keyboard only: answer approvals (allow, deny with a reason)", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await Deno.mkdir(join(h.workspace, "build"));
    await f.open();
    const card = page.locator(".approval-card");
    h.fake.enqueue({ toolCalls: [terminal("rm -rf build/")] }, { text: "Removed it." });
    await sendByKeyboard(f, "Clean the build folder");
    await card.waitFor();
    ok(await focusReaches(page, ".approval-card [data-choice='once']"), "Allow once has focus");
    await assertFocusVisible(page, "on Allow once");
    await page.keyboard.press("Enter");
    await f.settled();
    strictEqual(await card.count(), 0);
    ok(await focusReaches(page, "#composer-input"), "focus returns to the composer");

    // Deny with a reason: Tab to Deny…, type the reason, Escape backs out to Deny…, then again.
    const respond: Array<Record<string, unknown>> = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/approval/respond")) respond.push(r.postDataJSON());
    });
    h.fake.enqueue({ toolCalls: [terminal("rm -rf src/")] }, { text: "Kept it." });
    await sendByKeyboard(f, "Remove src");
    await card.waitFor();
    // The card takes focus a moment after it shows (and keeps where focus was, to return it
    // there): a Tab pressed before that moves focus on from the composer, and the card would
    // then give focus back to that next control.
    ok(await focusReaches(page, ".approval-card [data-choice='once']"), "the card took focus");
    await tabTo(page, ".approval-card [data-choice='deny-open']");
    await page.keyboard.press("Enter");
    await page.locator(".approval-reason").waitFor();
    // The field takes focus once it is rendered (a frame after it appears): wait for that.
    await page.waitForFunction(() => document.activeElement?.matches(".approval-reason") ?? false);
    ok(await focusReaches(page, ".approval-reason"), "the reason field has focus");
    await page.keyboard.press("Escape");
    await page.locator(".approval-reason").waitFor({ state: "detached" });
    ok(
      await focusReaches(page, ".approval-card [data-choice='deny-open']"),
      "Escape returns focus to Deny…",
    );
    await page.keyboard.press("Enter");
    await page.locator(".approval-reason").waitFor();
    // Again the field takes focus a frame after it renders: typing earlier loses keys.
    await page.waitForFunction(() => document.activeElement?.matches(".approval-reason") ?? false);
    await page.keyboard.type("Keep the sources");
    await page.keyboard.press("Enter");
    await f.settled();
    strictEqual(await card.count(), 0);
    strictEqual(respond.at(-1)?.choice, "deny");
    strictEqual(respond.at(-1)?.message, "Keep the sources");
    ok(await focusReaches(page, "#composer-input"), "focus returns to the composer");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

/** Chats with these titles (each with one answered turn, so the sidebar lists it). */
async function chats(f: TranscriptFixture, titles: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const title of titles) {
    const id = await f.h.newSession();
    f.h.fake.enqueue({ text: "ok" });
    await f.h.stream(
      (await f.h.call("POST", "/api/chat/start", { session_id: id, message: "hi" })).body
        .stream_id,
    );
    await f.h.call("POST", "/api/session/rename", { session_id: id, title });
    ids[title] = id;
  }
  return ids;
}

const rowItem = (id: string) => `.session-row[data-session-id="${id}"] .session-item`;

browserTest("keyboard only: rename and archive a chat from its row menu", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    const ids = await chats(f, ["Grocery list", "Deploy fix for staging"]);
    await f.open(ids["Grocery list"]);
    await tabTo(page, rowItem(ids["Grocery list"]));
    // The row's "…" button is the next stop; it shows on focus.
    await page.keyboard.press("Tab");
    ok(await focusReaches(page, "[data-action='session-menu']"), "Tab reaches the row menu");
    await assertFocusVisible(page, "on the row menu button");
    await page.keyboard.press("Enter");
    await page.locator("[role='menu']").waitFor();
    await assertFocusVisible(page, "in the row menu");
    await f.browser.screenshot(page, "keyboard-row-menu");
    // Escape closes the menu and focus goes back to its button.
    await page.keyboard.press("Escape");
    await page.locator("[role='menu']").waitFor({ state: "detached" });
    ok(await focusReaches(page, "[data-action='session-menu']"), "focus back on the … button");

    // Rename: open the menu, arrow to Rename, type, Enter.
    await page.keyboard.press("Enter");
    await page.locator("[role='menu']").waitFor();
    for (let i = 0; i < 12; i++) {
      if (await activeMatches(page, "[data-menu-action='rename']")) break;
      await page.keyboard.press("ArrowDown");
    }
    await page.keyboard.press("Enter");
    await page.locator("input[data-rename]").waitFor();
    ok(await focusReaches(page, "input[data-rename]"), "the name field has focus");
    await page.keyboard.press("Control+a");
    await page.keyboard.type("Weekly groceries");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (id) =>
        document.querySelector(`.session-row[data-session-id="${id}"]`)?.getAttribute(
          "data-title",
        ) === "Weekly groceries",
      ids["Grocery list"],
    );
    await page.locator("input[data-rename]").waitFor({ state: "detached" });
    ok(
      await focusReaches(
        page,
        `${rowItem(ids["Grocery list"])}, .session-row[data-session-id="${
          ids["Grocery list"]
        }"] [data-action='session-menu']`,
      ),
      "focus stays on the renamed row",
    );
    const renamed = await h.call("GET", `/api/session?session_id=${ids["Grocery list"]}`);
    strictEqual(renamed.body.session.title, "Weekly groceries");

    // Archive the other chat from its row menu.
    const other = ids["Deploy fix for staging"];
    await tabTo(page, `.session-row[data-session-id="${other}"] [data-action='session-menu']`, {
      back: !(await page.evaluate(
        (sel) =>
          !!(document.activeElement &&
            document.querySelector(sel)!.compareDocumentPosition(document.activeElement) &
              Node.DOCUMENT_POSITION_PRECEDING),
        `.session-row[data-session-id="${other}"]`,
      )),
    });
    await page.keyboard.press("Enter");
    await page.locator("[role='menu']").waitFor();
    for (let i = 0; i < 12; i++) {
      if (await activeMatches(page, "[data-menu-action='archive']")) break;
      await page.keyboard.press("ArrowDown");
    }
    await page.keyboard.press("Enter");
    await page.locator(`.session-row[data-session-id="${other}"]`).waitFor({
      state: "detached",
    });
    const archived = await h.call("GET", `/api/session?session_id=${other}`);
    strictEqual(archived.body.session.archived, true);
    ok(
      await focusReaches(page, ".session-list .session-item, .session-list button"),
      "focus moves to a neighbouring row, not lost",
    );
    await assertFocusVisible(page, "after archiving");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("keyboard only: search the sidebar and open a result", async () => {
  const f = await transcriptFixture();
  const { page } = f;
  try {
    const ids = await chats(f, ["Grocery list", "Deploy fix for staging", "Dependency upgrade"]);
    await f.open(ids["Grocery list"]);
    await tabTo(page, "[data-sidebar-search] input", { back: true });
    await page.keyboard.type("staging");
    await page.waitForFunction(() =>
      document.querySelectorAll(".session-list .session-row").length === 1
    );
    await f.browser.screenshot(page, "keyboard-sidebar-search");
    await page.keyboard.press("ArrowDown");
    ok(await focusReaches(page, rowItem(ids["Deploy fix for staging"])), "ArrowDown: 1st result");
    await assertFocusVisible(page, "on the result");
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`session=${ids["Deploy fix for staging"]}`));
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("keyboard only: switch the model and the workspace from their pickers", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    const other = await Deno.makeTempDir({ dir: h.workspace, prefix: "other-" });
    await h.call("POST", "/api/workspaces/add", { path: other });
    const [sid] = Object.values(await chats(f, ["Model and workspace"]));
    await f.open(sid);
    await page.keyboard.press("Control+/");

    // The model picker: Tab to its chip, Enter, Escape returns to the chip.
    await tabTo(page, "[data-chip='model']");
    await page.keyboard.press("Enter");
    const picker = page.locator("[data-popover='model']");
    await picker.waitFor();
    ok(await focusReaches(page, "[data-popover='model'] .pop-filter"), "the filter has focus");
    await assertFocusVisible(page, "in the model filter");
    await page.keyboard.press("Escape");
    await picker.waitFor({ state: "detached" });
    ok(await focusReaches(page, "[data-chip='model']"), "Escape: focus back on the model chip");
    // Again, and pick one by typing its id.
    await page.keyboard.press("Enter");
    await picker.waitFor();
    ok(await focusReaches(page, "[data-popover='model'] .pop-filter"), "the filter has focus");
    await page.keyboard.type("kbd-model");
    await picker.locator(".model-option[data-kind='typed']").waitFor();
    await f.browser.screenshot(page, "keyboard-model-picker");
    await page.keyboard.press("Enter");
    await picker.waitFor({ state: "detached" });
    await page.waitForFunction(() =>
      document.querySelector("[data-chip='model'] .chip-label")?.textContent === "kbd-model"
    );
    ok(await focusReaches(page, "#composer-input"), "a pick hands the keyboard to the composer");

    // The workspace switcher: Tab to its chip, Enter, arrows to the other one, Enter.
    await tabTo(page, "[data-chip='workspace']");
    await page.keyboard.press("Enter");
    const menu = page.locator("[data-popover='workspace']");
    await menu.locator(".workspace-option").first().waitFor();
    // The menu moves focus to the current option a frame after it renders.
    await page.waitForFunction(() =>
      document.activeElement?.matches(".workspace-option[aria-checked='true']") ?? false
    );
    ok(await focusReaches(page, ".workspace-option[aria-checked='true']"), "current has focus");
    await assertFocusVisible(page, "in the workspace menu");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    ok(await focusReaches(page, "[data-chip='workspace']"), "Escape: back on the workspace chip");
    await page.keyboard.press("Enter");
    await menu.locator(".workspace-option").first().waitFor();
    // Again: arrows only move inside the menu once it holds the focus (a frame after render).
    await page.waitForFunction(() =>
      document.activeElement?.matches(".workspace-option[aria-checked='true']") ?? false
    );
    const real = await Deno.realPath(other);
    for (let i = 0; i < 10; i++) {
      if (await activeMatches(page, `.workspace-option[data-path="${real}"]`)) break;
      await pressAndSettle(page, "ArrowDown");
      await assertFocusVisible(page, "in the workspace menu");
    }
    await page.keyboard.press("Enter");
    await menu.waitFor({ state: "detached" });
    const s = await h.call("GET", `/api/session?session_id=${sid}&messages=0`);
    strictEqual(s.body.session.workspace, real);
    strictEqual(s.body.session.model, "kbd-model");
    ok(await focusReaches(page, "#composer-input"), "a pick hands the keyboard to the composer");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("keyboard only: open the Control Center, change a setting, close it", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await f.open();
    await page.keyboard.press("Control+/");
    await page.keyboard.press("Control+,");
    const dialog = page.locator("[data-cc-dialog]");
    await dialog.waitFor();
    await page.waitForFunction(() =>
      document.querySelector("[data-cc-dialog]")?.contains(
        document.activeElement,
      )
    );
    // To the Appearance tab with the arrows (the tab list is one stop).
    await tabTo(page, "[data-cc-tab]", { back: true });
    for (let i = 0; i < 20; i++) {
      if (await activeMatches(page, "[data-cc-tab='appearance']")) break;
      await page.keyboard.press("ArrowDown");
    }
    ok(await focusReaches(page, "[data-cc-tab='appearance']"));
    await page.locator("[data-cc-panel='appearance']").waitFor();
    await tabTo(page, "[data-cc-setting='show_thinking']");
    const before = (await h.call("GET", "/api/settings")).body.show_thinking !== false;
    await page.keyboard.press("Space");
    await page.waitForSelector('[data-cc-status="appearance"][data-tone="success"]');
    const after = (await h.call("GET", "/api/settings")).body.show_thinking !== false;
    strictEqual(after, !before, "Space flipped the setting and it was saved");
    await f.browser.screenshot(page, "keyboard-control-center");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    ok(await focusReaches(page, "#composer-input"), "focus returns to where it was (composer)");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest(
  "keyboard only: the quick switcher opens a chat, and Escape gives focus back",
  async () => {
    const f = await transcriptFixture();
    const { page } = f;
    try {
      const ids = await chats(f, ["Grocery list", "Deploy fix for staging"]);
      await f.open(ids["Grocery list"]);
      await tabTo(page, rowItem(ids["Grocery list"]));
      await page.keyboard.press("Control+k");
      const input = page.locator("[data-quick-switcher] input");
      await input.waitFor();
      ok(await focusReaches(page, "[data-quick-switcher] input"));
      await assertFocusVisible(page, "in the quick switcher");
      await page.keyboard.press("Escape");
      await input.waitFor({ state: "detached" });
      ok(await focusReaches(page, rowItem(ids["Grocery list"])), "focus back where it was");
      await page.keyboard.press("Control+k");
      await page.locator("[data-quick-switcher] .quick-switcher-item").first().waitFor();
      ok(await focusReaches(page, "[data-quick-switcher] input"));
      await page.keyboard.type("stag");
      await page.waitForFunction(() =>
        document.querySelector("[data-quick-switcher] [aria-selected='true']")?.textContent ===
          "Deploy fix for staging"
      );
      await page.keyboard.press("Enter");
      await page.waitForURL(new RegExp(`session=${ids["Deploy fix for staging"]}`));
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest("keyboard only: every Tab stop of a chat page shows its focus", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await chats(f, ["Another chat"]);
    await Deno.writeTextFile(join(h.workspace, "notes.txt"), "hello\n");
    h.fake.enqueue({ toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] }, {
      text: "It says **hello**.\n\n```ts\nconst a = 1;\n```",
    });
    await f.open();
    await sendByKeyboard(f, "Read notes.txt");
    await f.settled();
    // Open the Activity row so its tool cards are stops too.
    await tabTo(page, ".activity > summary", { back: true });
    await page.keyboard.press("Enter");
    // Once round the whole page: every stop visible (tabTo asserts it), back to the start.
    const start = await page.evaluate(() => {
      const a = document.activeElement!;
      a.setAttribute("data-kbd-start", "");
      return a.tagName;
    });
    ok(start);
    let stops = 0;
    for (; stops < 200; stops++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement === document.body)) continue;
      await assertFocusVisible(page, `(stop ${stops})`);
      if (await activeMatches(page, "[data-kbd-start]")) break;
    }
    ok(stops > 15 && stops < 200, `went round the page (${stops} stops)`);
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest("keyboard only: edit-then-run an approval from the inbox", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  try {
    await Deno.mkdir(join(h.workspace, "build", "tmp"), { recursive: true });
    await Deno.writeTextFile(join(h.workspace, "build", "keep.txt"), "keep");
    const other = await h.newSession();
    h.fake.enqueue({ toolCalls: [terminal("rm -rf build")] });
    const run = await h.call("POST", "/api/chat/start", { session_id: other, message: "clean" });
    await waitForInbox(f, 1);
    h.fake.enqueue({ text: "Done." });
    await f.open();
    await tabTo(page, "[data-approval-inbox]");
    await page.keyboard.press("Enter");
    const card = page.locator(".approval-inbox-card");
    await card.waitFor();
    ok(await focusReaches(page, ".approval-inbox-card"), "the card has focus");
    await assertFocusVisible(page, "on the inbox card");
    await page.keyboard.press("e");
    ok(await focusReaches(page, ".approval-inbox-card textarea"), "e: the command is editable");
    await page.keyboard.press("Control+a");
    await page.keyboard.type("rm -rf build/tmp");
    await f.browser.screenshot(page, "keyboard-inbox-edit");
    // Run edited once: the first action after the command.
    await tabTo(page, ".approval-inbox-card .approval-inbox-actions button");
    await page.keyboard.press("Enter");
    await card.waitFor({ state: "detached" });
    ok(!(await activeMatches(page, "body")), "focus stays in the inbox once the card is gone");
    await assertFocusVisible(page, "after the last answer");
    await page.keyboard.press("Escape");
    await page.locator("[data-approval-inbox-panel]").waitFor({ state: "hidden" });
    // Its opener (the footer's "waiting on you") hid at zero: the composer takes the keyboard.
    await page.waitForFunction(() => document.activeElement !== document.body).catch(() => {});
    ok(
      await focusReaches(page, "#composer-input"),
      `closing the inbox hands focus on (at ${(await focusIndicator(page)).what})`,
    );
    await h.stream(run.body.stream_id);
    strictEqual(await Deno.readTextFile(join(h.workspace, "build", "keep.txt")), "keep");
    const gone = await Deno.stat(join(h.workspace, "build", "tmp")).then(() => false, () => true);
    ok(gone, "the edited command ran");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

async function waitForInbox(f: TranscriptFixture, n: number) {
  for (let i = 0; i < 100; i++) {
    if ((await f.h.call("GET", "/api/approval/inbox")).body.count === n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the inbox never held ${n}`);
}

browserTest(
  "keyboard only: a sidebar refresh landing under an open row menu keeps focus with the chats",
  async () => {
    const f = await transcriptFixture();
    const { page } = f;
    try {
      const ids = await chats(f, ["Grocery list", "Deploy fix for staging", "Tax return"]);
      await f.open(ids["Grocery list"]);
      // The refresh a rename ends with is held until another row's menu is open: the order a slow
      // server (a loaded CI) can produce by itself.
      let release!: () => void;
      const held = new Promise<void>((r) => release = r);
      await page.route("**/partials/sidebar?**", async (route) => {
        await held;
        await route.continue();
      }, { times: 1 });
      const menuButton = (id: string) =>
        `.session-row[data-session-id="${id}"] [data-action='session-menu']`;
      const pick = async (action: string) => {
        await page.locator("[role='menu']").waitFor();
        for (let i = 0; i < 12; i++) {
          if (await activeMatches(page, `[data-menu-action='${action}']`)) break;
          await page.keyboard.press("ArrowDown");
        }
        await page.keyboard.press("Enter");
      };
      await page.locator(menuButton(ids["Grocery list"])).focus();
      await page.keyboard.press("Enter");
      await pick("rename");
      await page.locator("input[data-rename]").waitFor();
      await page.keyboard.press("Control+a");
      await page.keyboard.type("Weekly groceries");
      await page.keyboard.press("Enter");
      await page.locator("input[data-rename]").waitFor({ state: "detached" });

      const other = ids["Deploy fix for staging"];
      const before = await page.locator(menuButton(other)).elementHandle();
      await page.locator(menuButton(other)).focus();
      await page.keyboard.press("Enter");
      await page.locator("[role='menu']").waitFor();
      release();
      // The held refresh swaps the list under the open menu.
      await page.waitForFunction((el) => !el!.isConnected, before);
      ok(
        await activeMatches(page, "[role='menu'] [role='menuitem']"),
        "the menu keeps focus while the list is refreshed under it",
      );
      await pick("archive");
      await page.locator(`.session-row[data-session-id="${other}"]`).waitFor({ state: "detached" });
      ok(
        await focusReaches(page, ".session-list .session-item, .session-list button"),
        "focus moves to a neighbouring row, not lost",
      );
      await assertFocusVisible(page, "after archiving under a refreshed list");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
