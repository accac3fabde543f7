// The Composer in a real browser against the real app and a fake provider on loopback: the
// send-key setting, attachments (picker and paste) reaching the engine, the model picker
// (groups from a fake /v1/models, an unreachable provider, a typed id used by the next run),
// slash commands (menu navigation, /title, /undo, /clear, /help, /usage), Stop on a slow run
// and a message queued meanwhile. Every test fails on a console error and saves screenshots.
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { Buffer } from "node:buffer";
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
}

interface SetupOptions {
  /** Extra YAML after the fake provider's `model:` section. */
  yaml?: string;
  models?: string[];
  /** Tool runtime overrides (e.g. no bubblewrap). */
  tools?: { bwrapPath: null };
}

/** App + fake provider + browser page, torn down whatever happens. */
function composerTest(name: string, opts: SetupOptions, fn: (c: Ctx) => Promise<void>) {
  browserTest(name, async () => {
    const fake = startFakeProvider({
      models: opts.models,
      respond: () => ({ text: "Fake answer." }),
    });
    try {
      await withAppInBrowser({
        configYaml:
          `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n` +
          `  api_key: test-key\n${opts.yaml ?? ""}`,
        tools: opts.tools,
      }, async ({ app, url, browser }) => {
        const page = await browser.newPage();
        if (Deno.env.get("DEBUG_NAV")) {
          page.on("framenavigated", (f) => f === page.mainFrame() && console.log("NAV", f.url()));
        }
        await fn({ app, fake, url, browser, page });
        if (browser.errors.length) console.log(app.logs.filter((l) => /error/i.test(l)).join("\n"));
        browser.assertNoErrors();
      });
    } finally {
      await fake.close();
    }
  });
}

async function open(c: Ctx, path = "/"): Promise<void> {
  await c.page.goto(`${c.url}${path}`);
  await waitForIslands(c.page);
}

/** Wait until the app has no run in progress for `sid` (the run finished or was cancelled). */
async function waitIdle(c: Ctx, sid: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { body } = await c.app.call<{ session: { active_stream_id: string | null } }>(
      "GET",
      `/api/session?session_id=${sid}&messages=0`,
    );
    if (!body.session.active_stream_id) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`session ${sid} is still running`);
}

/** The text of every user message the fake provider was sent in its last chat request. */
function lastUserText(fake: FakeProvider): string {
  const req = fake.chatRequests.at(-1);
  assert(req, "the provider received a chat request");
  const users = (req.body.messages as Array<{ role: string; content: unknown }>)
    .filter((m) => m.role === "user");
  const content = users.at(-1)!.content;
  return typeof content === "string"
    ? content
    : (content as Array<{ type: string; text?: string }>).map((p) => p.text ?? `[${p.type}]`)
      .join("\n");
}

/**
 * Resolves after the page reloaded and hydrated again (what /undo and /clear do when no live
 * transcript takes the change over), or after a short while when it did not reload.
 */
async function reloadOrSettle(page: Page): Promise<void> {
  const loaded = await page.waitForEvent("load", { timeout: 5000 }).then(() => true, () => false);
  if (loaded) await waitForIslands(page);
}

const sessionIdOf = (page: Page) => new URL(page.url()).searchParams.get("session")!;

/** Create a session with one finished exchange through the real API. */
async function seededChat(c: Ctx, message: string): Promise<string> {
  const created = await c.app.call<{ session: { session_id: string } }>(
    "POST",
    "/api/session/new",
    {},
  );
  const sid = created.body.session.session_id;
  const started = await c.app.call("POST", "/api/chat/start", { session_id: sid, message });
  strictEqual(started.status, 200);
  await waitIdle(c, sid);
  return sid;
}

composerTest("the send_key setting decides which combination sends", {}, async (c) => {
  const saved = await c.app.call("POST", "/api/settings", { send_key: "ctrl+enter" });
  strictEqual(saved.status, 200);
  await open(c);
  const input = c.page.locator("#composer-input");
  strictEqual(
    await c.page.locator(".composer-keys").textContent(),
    "Ctrl+Enter to send · Enter for a new line",
  );
  await input.click();
  await c.page.keyboard.type("first line");
  await c.page.keyboard.press("Enter");
  await c.page.keyboard.type("second line");
  strictEqual(await input.inputValue(), "first line\nsecond line", "Enter made a new line");
  strictEqual(c.fake.chatRequests.length, 0, "and sent nothing");
  await c.page.keyboard.press("Shift+Enter");
  strictEqual(await input.inputValue(), "first line\nsecond line\n", "Shift+Enter too");
  await c.page.keyboard.press("Backspace");
  await c.browser.screenshot(c.page, "composer-sendkey-ctrl");
  await c.page.keyboard.press("Control+Enter");
  await c.page.waitForURL(/\?session=[0-9a-f]{12}$/);
  await waitIdle(c, sessionIdOf(c.page));
  strictEqual(lastUserText(c.fake), "first line\nsecond line");
});

composerTest(
  "with the default send key, Ctrl+Enter adds a line; a changed setting applies at once",
  {},
  async (c) => {
    await open(c);
    const input = c.page.locator("#composer-input");
    await input.click();
    await c.page.keyboard.type("one");
    await c.page.keyboard.press("Control+Enter");
    await c.page.keyboard.type("two");
    strictEqual(await input.inputValue(), "one\ntwo");
    // The Control Center saved send_key = shift+enter: the composer follows without a reload.
    await c.page.evaluate(() =>
      dispatchEvent(
        new CustomEvent("hermes:settings-changed", {
          detail: { changed: ["send_key"], settings: { send_key: "shift+enter" } },
        }),
      )
    );
    await c.page.waitForFunction(() =>
      document.querySelector(".composer-keys")?.textContent ===
        "Shift+Enter to send · Enter for a new line"
    );
    await c.page.keyboard.press("Enter");
    await c.page.keyboard.type("three");
    strictEqual(await input.inputValue(), "one\ntwo\nthree");
    strictEqual(c.fake.chatRequests.length, 0);
    await c.page.keyboard.press("Shift+Enter");
    await c.page.waitForURL(/\?session=[0-9a-f]{12}$/);
    await waitIdle(c, sessionIdOf(c.page));
    strictEqual(lastUserText(c.fake), "one\ntwo\nthree");
  },
);

// A 1×1 transparent PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ),
  (ch) => ch.charCodeAt(0),
);

composerTest("attachments from the picker and a long paste reach the engine", {}, async (c) => {
  await open(c);
  const fileInput = c.page.locator('input[data-role="file-input"]');
  await fileInput.setInputFiles([
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("PICKED-42\n") },
    { name: "pixel.png", mimeType: "image/png", buffer: Buffer.from(PNG) },
    { name: "drop me.log", mimeType: "text/plain", buffer: Buffer.from("nope") },
  ]);
  const chips = c.page.locator(".attachment-chip");
  await c.page.waitForFunction(() =>
    document.querySelectorAll('.attachment-chip[data-status="ready"]').length === 3
  );
  assertEquals(await c.page.locator(".attachment-name").allTextContents(), [
    "notes.txt",
    "pixel.png",
    "drop_me.log",
  ]);
  strictEqual(await chips.nth(0).locator(".attachment-meta").textContent(), "10 B");
  strictEqual(await c.page.locator(".attachment-chip img.attachment-thumb").count(), 1);
  await c.page.locator('button[aria-label="Remove drop me.log"]').click();
  strictEqual(await chips.count(), 2, "a removed chip is gone");

  // Files dropped on the composer are attached too (the box shows where they will land).
  await c.page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["DROPPED-7"], "dropped.md", { type: "text/markdown" }));
    const box = document.querySelector(".composer")!;
    box.dispatchEvent(new DragEvent("dragenter", { dataTransfer: dt, bubbles: true }));
    box.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true }));
  });
  await c.page.waitForSelector('.composer[data-drag="over"] .composer-drop');
  await c.browser.screenshot(c.page, "composer-drag-over");
  await c.page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["DROPPED-7"], "dropped.md", { type: "text/markdown" }));
    const input = document.querySelector("#composer-input")!;
    input.dispatchEvent(
      new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }),
    );
  });
  await c.page.waitForSelector('.attachment-chip[data-status="ready"] >> text=dropped.md');
  strictEqual(await c.page.locator(".composer[data-drag]").count(), 0, "the drop hint is gone");
  strictEqual(await c.page.locator("#composer-input").inputValue(), "", "nothing dropped inline");

  // A paste over 4,000 characters becomes a text file instead of flooding the textarea.
  const long = "PASTED-START " + "lorem ipsum ".repeat(400) + " PASTED-END";
  await c.page.locator("#composer-input").focus();
  await c.page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", text);
    const ev = new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true });
    document.querySelector("#composer-input")!.dispatchEvent(ev);
  }, long);
  await c.page.waitForSelector('.attachment-chip[data-status="ready"] >> text=pasted-text-1.txt');
  strictEqual(await c.page.locator("#composer-input").inputValue(), "", "nothing pasted inline");
  // A short paste stays text.
  await c.page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData("text/plain", "short paste");
    const ev = new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true });
    const el = document.querySelector("#composer-input")!;
    if (el.dispatchEvent(ev)) document.execCommand("insertText", false, "short paste");
  });
  strictEqual(await c.page.locator("#composer-input").inputValue(), "short paste");
  await c.page.keyboard.type(": what do these say?");
  await c.browser.screenshot(c.page, "composer-attachments");

  await c.page.keyboard.press("Enter");
  await c.page.waitForURL(/\?session=[0-9a-f]{12}$/);
  const sid = sessionIdOf(c.page);
  await waitIdle(c, sid);
  const sent = lastUserText(c.fake);
  assert(sent.includes("short paste: what do these say?"), sent.slice(0, 200));
  assert(sent.includes("PICKED-42"), "the picked file's content reached the provider");
  assert(sent.includes("PASTED-START") && sent.includes("PASTED-END"), "and the pasted text");
  assert(sent.includes("[image"), "the image went as an image part");
  assert(sent.includes("DROPPED-7"), "and the dropped file");
  assert(!sent.includes("nope"), "the removed file did not");
  const { body } = await c.app.call<{ session: { messages: Array<{ attachments?: unknown[] }> } }>(
    "GET",
    `/api/session?session_id=${sid}`,
  );
  const stored = body.session.messages[0].attachments as Array<{ filename: string }>;
  assertEquals(stored.map((a) => a.filename), [
    "notes.txt",
    "pixel.png",
    "dropped.md",
    "pasted-text-1.txt",
  ]);
});

composerTest("a failed upload is shown on its chip and blocks the send", {}, async (c) => {
  await open(c);
  await c.page.route("**/api/upload", (route) =>
    route.fulfill({
      status: 413,
      contentType: "application/json",
      body: JSON.stringify({ error: "Upload is larger than the limit of 20 MB" }),
    }));
  await c.page.locator('input[data-role="file-input"]').setInputFiles({
    name: "big.bin",
    mimeType: "application/octet-stream",
    buffer: Buffer.alloc(16),
  });
  await c.page.waitForSelector('.attachment-chip[data-status="error"]');
  strictEqual(
    await c.page.locator(".attachment-chip .attachment-meta").textContent(),
    "Upload is larger than the limit of 20 MB",
  );
  await c.page.locator("#composer-input").fill("look at this");
  await c.page.keyboard.press("Enter");
  await c.page.waitForSelector(".composer-error");
  assert((await c.page.locator(".composer-error").textContent())!.includes("big.bin"));
  strictEqual(await c.page.locator("#composer-input").inputValue(), "look at this");
  strictEqual(c.fake.chatRequests.length, 0);
  await c.browser.screenshot(c.page, "composer-upload-error");
  // Chromium logs the 413 the route answered as a failed resource load.
  c.browser.errors.splice(
    0,
    c.browser.errors.length,
    ...c.browser.errors.filter((e) => !e.includes("413")),
  );
});

composerTest(
  "the model picker groups providers, marks an unreachable one, and a typed id is used",
  {
    yaml: 'custom_providers:\n  - {name: offline-box, base_url: "http://127.0.0.1:1/v1"}\n',
    models: ["fake-model", "fake-model-large", "fake-coder"],
  },
  async (c) => {
    let modelRequests = 0;
    c.page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/models") modelRequests++;
    });
    await open(c);
    const chip = c.page.locator('[data-chip="model"]');
    strictEqual(await chip.locator(".chip-label").textContent(), "fake-model");
    strictEqual(modelRequests, 0, "the catalog is not fetched before the picker opens");
    await chip.click();
    const picker = c.page.locator('[data-popover="model"]');
    await picker.waitFor();
    await c.page.waitForSelector(
      '.model-group[data-provider="custom"] [data-model-id="fake-coder"]',
    );
    strictEqual(modelRequests >= 1, true);
    const offline = c.page.locator('.model-group[data-provider="custom:offline-box"]');
    await c.page.waitForFunction(() => {
      const g = document.querySelector('.model-group[data-provider="custom:offline-box"]');
      return g?.getAttribute("data-state") === "unreachable";
    });
    assert((await offline.locator(".model-group-note").textContent())!.startsWith("unreachable"));
    assertEquals(
      await picker.locator('.model-group[data-provider="custom"] .model-option').evaluateAll(
        (els) => els.map((e) => e.getAttribute("data-model-id")),
      ),
      ["fake-model", "fake-model-large", "fake-coder"],
    );
    strictEqual(
      await picker.locator('[data-model-id="fake-model"][data-current]').count(),
      1,
      "the current model is marked",
    );
    await c.browser.screenshot(c.page, "composer-model-picker");

    // Filtering narrows the list; a typed id that is not listed can be used as is.
    await c.page.keyboard.type("coder");
    assertEquals(
      await picker.locator(".model-option").evaluateAll((els) =>
        els.map((e) => e.getAttribute("data-model-id"))
      ),
      ["coder", "fake-coder"],
    );
    await c.page.keyboard.press("Control+A");
    await c.page.keyboard.type("my-typed-model");
    const typed = picker.locator('.model-option[data-kind="typed"]');
    strictEqual(await typed.textContent(), "Use model 'my-typed-model'");
    await c.browser.screenshot(c.page, "composer-model-typed");
    await c.page.keyboard.press("Enter");
    await picker.waitFor({ state: "detached" });
    strictEqual(await chip.locator(".chip-label").textContent(), "my-typed-model");

    await c.page.locator("#composer-input").fill("which model are you?");
    await c.page.keyboard.press("Enter");
    await c.page.waitForURL(/\?session=[0-9a-f]{12}$/);
    const sid = sessionIdOf(c.page);
    await waitIdle(c, sid);
    strictEqual(c.fake.chatRequests.at(-1)!.body.model, "my-typed-model", "the run used it");

    // In an existing chat, picking from the list updates the session at once.
    await waitForIslands(c.page);
    strictEqual(await chip.locator(".chip-label").textContent(), "my-typed-model");
    await chip.click();
    await c.page.waitForSelector('[data-popover="model"] [data-model-id="fake-model-large"]');
    await c.page.locator('[data-popover="model"] [data-model-id="fake-model-large"]').click();
    await c.page.waitForFunction(() =>
      document.querySelector('[data-chip="model"] .chip-label')?.textContent === "fake-model-large"
    );
    const { body } = await c.app.call<{ session: { model: string; model_provider: string } }>(
      "GET",
      `/api/session?session_id=${sid}&messages=0`,
    );
    assertEquals([body.session.model, body.session.model_provider], ["fake-model-large", "custom"]);
  },
);

composerTest("the workspace switcher lists, switches and adds workspaces", {}, async (c) => {
  const sid = await seededChat(c, "hello");
  const extra = await Deno.makeTempDir({ dir: c.app.workspace, prefix: "other-" });
  await open(c, `/?session=${sid}`);
  const chip = c.page.locator('[data-chip="workspace"]');
  strictEqual(await chip.locator(".chip-label").textContent(), "~/workspace");
  await chip.click();
  const menu = c.page.locator('[data-popover="workspace"]');
  await menu.locator(".workspace-option").first().waitFor();
  strictEqual(await menu.locator('.workspace-option[aria-checked="true"]').count(), 1);
  await menu.locator(".workspace-add-open").click();
  await menu.locator('input[aria-label="Workspace path"]').fill(extra);
  await c.browser.screenshot(c.page, "composer-workspace-add");
  await c.page.keyboard.press("Enter");
  await menu.waitFor({ state: "detached" });
  const short = "~/workspace/" + extra.split("/").pop();
  strictEqual(await chip.locator(".chip-label").textContent(), short);
  const { body } = await c.app.call<{ session: { workspace: string } }>(
    "GET",
    `/api/session?session_id=${sid}&messages=0`,
  );
  strictEqual(body.session.workspace, await Deno.realPath(extra));
  // And back through /workspace with an argument.
  await c.page.locator("#composer-input").fill("/workspace ~/workspace");
  await c.page.keyboard.press("Escape");
  await c.page.keyboard.press("Enter");
  await c.page.waitForFunction(() =>
    document.querySelector('[data-chip="workspace"] .chip-label')?.textContent === "~/workspace"
  );
});

composerTest("slash menu: navigation, /help, /title, /usage, /undo and /clear", {}, async (c) => {
  const sid = await seededChat(c, "Explain the build script");
  await open(c, `/?session=${sid}`);
  const input = c.page.locator("#composer-input");
  const menu = c.page.locator('[data-popover="slash"]');
  const selected = () => menu.locator('[aria-selected="true"] .slash-label').textContent();

  await input.click();
  await c.page.keyboard.type("/");
  await menu.waitFor();
  strictEqual(await selected(), "/help");
  await c.page.keyboard.press("ArrowDown");
  strictEqual(await selected(), "/new");
  await c.page.keyboard.press("ArrowUp");
  await c.page.keyboard.press("ArrowUp");
  strictEqual(await selected(), "/reload-mcp", "the selection wraps around");
  await c.browser.screenshot(c.page, "composer-slash-menu");
  await c.page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  strictEqual(await input.inputValue(), "/", "Escape closes the menu, the text stays");

  // /help opens a quiet popover listing the commands.
  await c.page.keyboard.type("he");
  await menu.waitFor();
  strictEqual(await selected(), "/help");
  await c.page.keyboard.press("Enter");
  const help = c.page.locator('[data-popover="help"]');
  await help.waitFor();
  // Issue 14: `/title` without text asks the model for a title, so its argument is optional.
  assert((await help.locator("dt").allTextContents()).includes("/title [text]"));
  strictEqual(await input.inputValue(), "");
  await c.browser.screenshot(c.page, "composer-help");
  await c.page.keyboard.press("Escape");
  await help.waitFor({ state: "detached" });

  // /title via the menu: Tab completes, the argument is typed, Enter renames.
  await c.page.keyboard.type("/ti");
  await c.page.keyboard.press("Tab");
  strictEqual(await input.inputValue(), "/title ");
  await c.page.keyboard.type("Build script notes");
  await c.page.keyboard.press("Enter");
  await c.page.waitForFunction(() => document.title.startsWith("Build script notes"));
  const renamed = await c.app.call<{ session: { title: string } }>(
    "GET",
    `/api/session?session_id=${sid}&messages=0`,
  );
  strictEqual(renamed.body.session.title, "Build script notes");

  // /usage shows the chat's tokens.
  await input.fill("/usage");
  await c.page.keyboard.press("Escape");
  await c.page.keyboard.press("Enter");
  const usage = c.page.locator('[data-popover="usage"]');
  await usage.waitFor();
  strictEqual(await usage.locator('[data-usage="Messages"]').textContent(), "2");
  await c.browser.screenshot(c.page, "composer-usage");

  // /undo drops the last turn and gives its message back.
  await input.fill("/undo");
  await c.page.keyboard.press("Escape");
  let reloaded = reloadOrSettle(c.page);
  await c.page.keyboard.press("Enter");
  await reloaded;
  await c.page.waitForFunction(() =>
    (document.querySelector("#composer-input") as HTMLTextAreaElement | null)?.value ===
      "Explain the build script"
  );
  strictEqual(await input.inputValue(), "Explain the build script", "kept across the reload");
  const undone = await c.app.call<{ session: { message_count: number } }>(
    "GET",
    `/api/session?session_id=${sid}&messages=0`,
  );
  strictEqual(undone.body.session.message_count, 0);

  // Send it again, then /clear empties the chat.
  await c.page.keyboard.press("Enter");
  await c.fake.waitForChatRequests(2);
  await waitIdle(c, sid);
  const again = await c.app.call<{ session: { message_count: number } }>(
    "GET",
    `/api/session?session_id=${sid}&messages=0`,
  );
  strictEqual(again.body.session.message_count, 2);
  await open(c, `/?session=${sid}`);
  await input.fill("/clear");
  await c.page.keyboard.press("Escape");
  reloaded = reloadOrSettle(c.page);
  await c.page.keyboard.press("Enter");
  await reloaded;
  const cleared = await c.app.call<{ session: { message_count: number } }>(
    "GET",
    `/api/session?session_id=${sid}&messages=0`,
  );
  strictEqual(cleared.body.session.message_count, 0);
  strictEqual(await c.page.locator(".empty-state").count(), 1, "the transcript is empty");
});

composerTest("unknown /commands go to the agent as written", {}, async (c) => {
  await open(c);
  await c.page.locator("#composer-input").fill("/frobnicate");
  await c.page.waitForSelector('[data-popover="slash"] .pop-empty');
  await c.page.keyboard.type(" the widgets");
  await c.page.waitForSelector('[data-popover="slash"]', { state: "detached" });
  await c.page.keyboard.press("Enter");
  await c.page.waitForURL(/\?session=[0-9a-f]{12}$/);
  await waitIdle(c, sessionIdOf(c.page));
  strictEqual(lastUserText(c.fake), "/frobnicate the widgets");
});

composerTest(
  "Stop cancels a slow run; a message typed meanwhile is queued and sent",
  {},
  async (c) => {
    c.fake.enqueue({ text: "slow ".repeat(400), delayMs: 100 }, { text: "Second answer." });
    await open(c);
    await c.page.locator("#composer-input").fill("Write a long essay");
    await c.page.keyboard.press("Enter");
    await c.page.waitForURL(/\?session=[0-9a-f]{12}$/);
    const sid = sessionIdOf(c.page);
    await waitForIslands(c.page);
    const stop = c.page.locator('[data-action="stop"]');
    await stop.waitFor();
    strictEqual(await c.page.locator(".composer").getAttribute("data-state"), "running");

    // Typing during the run queues the message.
    await c.page.locator("#composer-input").fill("And a summary");
    await c.page.keyboard.press("Enter");
    await c.page.waitForSelector("[data-queued]");
    strictEqual(await c.page.locator(".queued-text").textContent(), "And a summary");
    strictEqual(await c.page.locator("#composer-input").inputValue(), "");
    await c.browser.screenshot(c.page, "composer-running-queued");
    strictEqual(c.fake.chatRequests.length, 1, "nothing more was sent yet");

    await stop.click();
    // The first run is cancelled; the queued message then starts the second one.
    await c.fake.waitForChatRequests(2);
    strictEqual(lastUserText(c.fake), "And a summary");
    await waitIdle(c, sid);
    const { body } = await c.app.call<
      { session: { messages: Array<{ role: string; content: string }> } }
    >(
      "GET",
      `/api/session?session_id=${sid}`,
    );
    const users = body.session.messages.filter((m) => m.role === "user").map((m) => m.content);
    assertEquals(users, ["Write a long essay", "And a summary"]);
    const first = body.session.messages.find((m) => m.role === "assistant")!;
    assert(first.content.length < "slow ".repeat(400).length, "the slow answer was cut short");
  },
);

composerTest(
  "an unsandboxed shell is noted quietly and /yolo shows a clear warning state",
  { tools: { bwrapPath: null } },
  async (c) => {
    await c.app.call("POST", "/api/settings", { theme: "dark" });
    const sid = await seededChat(c, "hello");
    await open(c, `/?session=${sid}`);
    const note = c.page.locator('.composer-note[data-sandbox="off"]');
    strictEqual(await note.textContent(), "Shell runs unsandboxed: approvals are the only gate");
    assert((await note.getAttribute("title"))!.includes("approvals are the only gate"));
    strictEqual(await c.page.locator('[data-chip="yolo"]').count(), 0);

    const skips: unknown[] = [];
    await c.page.exposeFunction("__skip", (d: unknown) => skips.push(d));
    await c.page.evaluate(() =>
      addEventListener(
        "hermes:skip-approvals",
        (e) =>
          (window as unknown as { __skip(d: unknown): void }).__skip((e as CustomEvent).detail),
      )
    );
    await c.page.locator("#composer-input").fill("/yolo");
    await c.page.keyboard.press("Enter");
    await c.page.locator('[data-popover="yolo"]').waitFor();
    await c.page.locator('[data-chip="yolo"]').waitFor();
    assertEquals(skips, [{ session_id: sid, enabled: true }]);
    const on = await c.app.call<{ session: { skip_approvals: boolean } }>(
      "GET",
      `/api/session?session_id=${sid}&messages=0`,
    );
    strictEqual(on.body.session.skip_approvals, true);
    await c.browser.screenshot(c.page, "composer-yolo-dark");

    // The chip turns approvals back on.
    await c.page.locator('[data-chip="yolo"]').click();
    await c.page.locator('[data-chip="yolo"]').waitFor({ state: "detached" });
    const off = await c.app.call<{ session: { skip_approvals: boolean } }>(
      "GET",
      `/api/session?session_id=${sid}&messages=0`,
    );
    strictEqual(off.body.session.skip_approvals, false);
    assertEquals(skips.at(-1), { session_id: sid, enabled: false });

    // /network lets this chat's shell reach the network, and says so; again turns it off.
    const network = async () =>
      (await c.app.call<{ session: { allow_network: boolean } }>(
        "GET",
        `/api/session?session_id=${sid}&messages=0`,
      )).body.session.allow_network;
    await c.page.locator("#composer-input").fill("/network");
    await c.page.keyboard.press("Enter");
    await c.page.getByText("The shell can reach the network in this chat").waitFor();
    strictEqual(await network(), true);
    await c.page.locator("#composer-input").fill("/network");
    await c.page.keyboard.press("Enter");
    await c.page.getByText("The shell is offline again").waitFor();
    strictEqual(await network(), false);
  },
);

composerTest(
  "a catalog still refreshing is asked again, and pending providers say so quietly",
  {},
  async (c) => {
    const answers = [
      {
        active_provider: "custom",
        default_model: "fake-model",
        source: "partial",
        refreshing: true,
        groups: [
          {
            provider: "Custom",
            provider_id: "custom",
            models: [{ id: "fake-model", label: "fake-model" }],
          },
          { provider: "LM Studio", provider_id: "lmstudio", models: [], pending: true },
        ],
      },
      {
        active_provider: "custom",
        default_model: "fake-model",
        source: "live",
        groups: [
          {
            provider: "Custom",
            provider_id: "custom",
            models: [{ id: "fake-model", label: "fake-model" }],
          },
          {
            provider: "LM Studio",
            provider_id: "lmstudio",
            models: [{ id: "qwen-local", label: "qwen-local" }],
          },
        ],
      },
    ];
    let served = 0;
    await c.page.route("**/api/models", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify(answers[Math.min(served++, answers.length - 1)]),
      }));
    await open(c);
    await c.page.locator('[data-chip="model"]').click();
    const lm = c.page.locator('.model-group[data-provider="lmstudio"]');
    await c.page.waitForSelector('.model-group[data-provider="lmstudio"][data-state="pending"]');
    strictEqual(await lm.locator(".model-group-note").textContent(), "checking…");
    await c.browser.screenshot(c.page, "composer-model-pending");
    // Without closing the picker, the fresher catalog replaces the partial one.
    await c.page.waitForSelector('[data-popover="model"] [data-model-id="qwen-local"]');
    strictEqual(await lm.getAttribute("data-state"), "ok");
    strictEqual(served, 2, "asked exactly once more: the second answer was complete");
  },
);
