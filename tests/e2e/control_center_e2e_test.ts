// The Control Center in a real browser: one modal opened from the sidebar footer, with a JSON
// export → import round trip through the real download and file input, keyboard behaviour
// (Escape, a focus trap that wraps, arrows across tabs, focus back on the opener), a
// full-screen sheet on phones, and the settings panels writing through the real API.
import { readLocaleFiles } from "../../lib/i18n/catalog.ts";
import { deepStrictEqual, ok as assert, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { type TestApp } from "../helpers.ts";
import { browserTest, type Page, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";

interface Msg {
  role: string;
  content: unknown;
  tool_calls?: unknown;
  tool_call_id?: string;
  reasoning?: string;
}

async function messagesOf(app: TestApp, id: string): Promise<Msg[]> {
  const { body } = await app.call<{ session: { messages: Msg[] } }>(
    "GET",
    `/api/session?session_id=${id}`,
  );
  return body.session.messages.map(({ role, content, tool_calls, tool_call_id, reasoning }) => ({
    role,
    content,
    tool_calls,
    tool_call_id,
    reasoning,
  }));
}

/** Open the Control Center from the sidebar footer and wait for the dialog. */
async function openControlCenter(page: Page): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector('[data-cc-dialog][role="dialog"]');
}

/** True when the focused element is inside the dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(() => !!document.activeElement?.closest("[data-cc-dialog]"));

browserTest("Control Center: export a conversation as JSON and import it back", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const seeded = await seedApp(app);
    const downloads = await Deno.makeTempDir({ prefix: "hermes-export-" });
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await openControlCenter(page);
      strictEqual(
        await page.locator('[data-cc-tab="conversation"]').getAttribute("aria-selected"),
        "true",
      );
      await browser.screenshot(page, "control-center-conversation");

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.locator('[data-cc-export="json"]').click(),
      ]);
      strictEqual(download.suggestedFilename(), `hermes-${seeded.withTranscript}.json`);
      const file = join(downloads, download.suggestedFilename());
      await download.saveAs(file);
      const exported = JSON.parse(await Deno.readTextFile(file)) as { messages: Msg[] };
      const original = await messagesOf(app, seeded.withTranscript);
      strictEqual(exported.messages.length, original.length);
      strictEqual(original.length, 6, "the seeded conversation: question, tools, answer");

      // Import the very file: the console opens the new conversation.
      await page.locator("[data-cc-import]").setInputFiles(file);
      await page.waitForURL((u) => {
        const sid = u.searchParams.get("session");
        return !!sid && sid !== seeded.withTranscript;
      });
      const imported = new URL(page.url()).searchParams.get("session")!;
      deepStrictEqual(await messagesOf(app, imported), original, "the same messages, in order");
      assert(
        (await page.locator(".transcript").textContent())!.includes("The collision comes from"),
        "the imported conversation is on screen",
      );
      await browser.screenshot(page, "control-center-imported");

      // A file that is not an export is refused in words, nothing is created.
      const before = (await app.call<{ sessions: unknown[] }>("GET", "/api/sessions")).body.sessions
        .length;
      const bogus = join(downloads, "notes.json");
      await Deno.writeTextFile(bogus, JSON.stringify({ hello: "world" }));
      await openControlCenter(page);
      await page.locator("[data-cc-import]").setInputFiles(bogus);
      await page.waitForSelector('[data-cc-status="import"][data-tone="error"]');
      assert(
        (await page.locator('[data-cc-status="import"]').textContent())!.includes("no messages"),
      );
      strictEqual(
        (await app.call<{ sessions: unknown[] }>("GET", "/api/sessions")).body.sessions.length,
        before,
      );

      // Clear asks first, then empties the open conversation.
      await page.locator("[data-cc-block=clear] [data-cc-ask]").click();
      // The page reloads onto the URL it is already on, so wait for the clear itself.
      const cleared = page.waitForResponse((r) => r.url().endsWith("/api/session/clear") && r.ok());
      await page.locator('[data-cc-action="clear-session"]').click();
      await cleared;
      await page.waitForURL(`${url}/?session=${imported}`);
      strictEqual((await messagesOf(app, imported)).length, 0);
      strictEqual((await messagesOf(app, seeded.withTranscript)).length, 6, "the original stays");
      browser.assertNoErrors();
    } finally {
      await Deno.remove(downloads, { recursive: true });
    }
  });
});

browserTest(
  "Control Center: Escape closes it, Tab stays inside, focus returns to the opener",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app);
      const page = await browser.newPage();
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      const opener = page.locator('[data-action="control-center"]');
      await opener.focus();
      await page.keyboard.press("Enter");
      await page.waitForSelector('[data-cc-dialog][aria-modal="true"]');
      strictEqual(await focusInDialog(page), true, "focus moved into the dialog");
      strictEqual(await page.evaluate(() => document.activeElement?.getAttribute("role")), "tab");
      strictEqual(await opener.getAttribute("aria-expanded"), "true");

      // Arrows move between tabs (and show their panel).
      await page.keyboard.press("ArrowDown");
      strictEqual(
        await page.evaluate(() => (document.activeElement as HTMLElement).dataset.ccTab),
        "appearance",
      );
      strictEqual(await page.locator('[data-cc-panel="appearance"]').isVisible(), true);
      strictEqual(await page.locator('[data-cc-panel="conversation"]').isVisible(), false);
      await page.keyboard.press("End");
      strictEqual(
        await page.evaluate(() => (document.activeElement as HTMLElement).dataset.ccTab),
        "system",
      );

      // Tab forward through everything and around: focus never leaves the dialog.
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        strictEqual(await focusInDialog(page), true, `Tab #${i + 1} stayed inside`);
        seen.add(await page.evaluate(() => document.activeElement!.outerHTML.slice(0, 60)));
      }
      assert(seen.size >= 5, "Tab visited the dialog's controls");
      // From the first control, Shift+Tab wraps to the last.
      await page.locator(".cc-close").focus();
      await page.keyboard.press("Shift+Tab");
      strictEqual(await focusInDialog(page), true);
      strictEqual(
        await page.evaluate(() => document.activeElement?.textContent?.trim()),
        "Open Insights",
        "Shift+Tab on the first control wraps to the last",
      );
      await page.keyboard.press("Tab");
      strictEqual(
        await page.evaluate(() => document.activeElement?.className),
        "btn btn-icon cc-close",
      );

      // The page behind is inert while the dialog is open.
      strictEqual(await page.locator(".app").getAttribute("inert"), "");
      await browser.screenshot(page, "control-center-system");

      await page.keyboard.press("Escape");
      await page.waitForSelector("[data-cc-layer]", { state: "detached" });
      strictEqual(
        await page.evaluate(() => (document.activeElement as HTMLElement).dataset.action),
        "control-center",
        "focus is back on the footer button",
      );
      strictEqual(await page.locator(".app").getAttribute("inert"), null);
      strictEqual(await opener.getAttribute("aria-expanded"), "false");

      // The scrim and the close button close it too; it reopens on the tab last used.
      await openControlCenter(page);
      strictEqual(
        await page.locator('[data-cc-tab="system"]').getAttribute("aria-selected"),
        "true",
      );
      await page.locator(".cc-close").click();
      await page.waitForSelector("[data-cc-layer]", { state: "detached" });
      await openControlCenter(page);
      await page.mouse.click(10, 10);
      await page.waitForSelector("[data-cc-layer]", { state: "detached" });

      // Phones: a full-screen sheet, opened from the drawer's footer.
      const phone = await browser.newPage({ width: 390, height: 780 });
      await phone.goto(`${url}/?session=${seeded.withTranscript}`);
      await phone.locator('[data-action="toggle-sidebar"]').first().click();
      await openControlCenter(phone);
      const box = (await phone.locator("[data-cc-dialog]").boundingBox())!;
      deepStrictEqual([box.x, box.y, box.width, box.height], [0, 0, 390, 780]);
      await phone.locator('[data-cc-tab="mcp"]').click();
      await browser.screenshot(phone, "control-center-phone");
      await phone.keyboard.press("Escape");
      await phone.waitForSelector("[data-cc-layer]", { state: "detached" });
      browser.assertNoErrors();
    });
  },
);

browserTest(
  "Control Center: appearance, preferences, keys and system write through the API",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const settings = async () =>
        (await app.call<Record<string, unknown>>("GET", "/api/settings")).body;
      const until = async (check: () => Promise<boolean>, what: string) => {
        for (let i = 0; i < 200; i++) {
          if (await check()) return;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error(`timed out waiting for ${what}`);
      };
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await openControlCenter(page);

      // Appearance: the theme applies at once and is saved.
      await page.locator('[data-cc-tab="appearance"]').click();
      await page.locator('[data-theme-option="dark"]').click();
      strictEqual(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
      await until(async () => (await settings()).theme === "dark", "the theme to be saved");
      await page.locator('[data-cc-setting="show_thinking"]').click({ force: true });
      await page.waitForSelector('[data-cc-status="appearance"][data-tone="success"]');
      strictEqual((await settings()).show_thinking, false);
      await browser.screenshot(page, "control-center-appearance-dark");

      // Preferences: only changed fields are sent; a bad workspace is refused by name.
      await page.locator('[data-cc-tab="preferences"]').click();
      await page.locator("#cc-approval-timeout").fill("90");
      await page.selectOption("#cc-send-key", "ctrl+enter");
      await page.locator('form[data-cc-form="preferences"] [type="submit"]').click();
      await page.waitForSelector('[data-cc-status="preferences"][data-tone="success"]');
      const saved = await settings();
      strictEqual(saved.approval_timeout_seconds, 90);
      strictEqual(saved.send_key, "ctrl+enter");
      strictEqual(saved.default_workspace, app.workspace, "an untouched field was not pinned");
      await page.locator("#cc-default-workspace").fill("/definitely/not/here");
      await page.locator('form[data-cc-form="preferences"] [type="submit"]').click();
      await page.waitForSelector('[data-cc-status="preferences"][data-tone="error"]');
      strictEqual(await page.locator("#cc-default-workspace").getAttribute("aria-invalid"), "true");
      assert(
        (await page.locator('[data-cc-status="preferences"]').textContent())!.includes(
          "default_workspace",
        ),
      );
      // That refusal is the one failed request the browser logs; nothing else went wrong.
      deepStrictEqual(browser.errors.splice(0).filter((e) => !e.includes("status of 400")), []);

      // Providers: a key is stored and shown masked only, then removed.
      await page.locator('[data-cc-tab="providers"]').click();
      await page.locator("#cc-key-openai").fill("sk-test-1234567890abcdefWXYZ");
      await page.locator('form[data-cc-form="keys"] [type="submit"]').click();
      await page.waitForSelector('[data-cc-status="keys"][data-tone="success"]');
      const masked = await page.locator('[data-provider="openai"] .cc-key-state').textContent();
      assert(masked && !masked.includes("1234567890abcdef"), `masked: ${masked}`);
      strictEqual(
        masked,
        (await settings() as { provider_keys: { openai: string } }).provider_keys.openai,
      );
      strictEqual(
        await page.locator('[data-provider="openai"] [data-cc-action="remove-key"]').count(),
        1,
      );
      await browser.screenshot(page, "control-center-providers");
      await page.locator('[data-provider="openai"] [data-cc-action="remove-key"]').click();
      await page.waitForSelector('[data-provider="openai"] [data-key-state="none"]');
      strictEqual(
        (await settings() as { provider_keys: { openai: string } }).provider_keys.openai,
        "",
      );

      // System: the sandbox line says what the runner found.
      await page.locator('[data-cc-tab="system"]').click();
      const sandbox = await app.ctx.tools.commands.status();
      strictEqual(
        (await page.locator(".cc-sandbox .cc-badge").textContent())!.trim(),
        `Bubblewrap sandbox ${sandbox.bubblewrap ? "on" : "off"}`,
      );
      strictEqual(await page.locator('a[href="/insights"]').count(), 1);

      // Password: mismatches are caught in place; a set password turns auth on.
      await page.locator("#cc-password").fill("correct horse");
      await page.locator("#cc-password-confirm").fill("correct hose");
      await page.locator('form[data-cc-form="password"] [type="submit"]').click();
      await page.waitForSelector('[data-cc-status="password"][data-tone="error"]');
      await page.locator("#cc-password-confirm").fill("correct horse");
      // Turning auth on must not cross a background poll: one sent with the old cookie after
      // the server turned auth on would be a 401. The page holds its polls across the change.
      const unauthorized: string[] = [];
      const note401 = (res: { status(): number; url(): string }) => {
        if (res.status() === 401) unauthorized.push(new URL(res.url()).pathname);
      };
      page.on("response", note401);
      await page.locator('form[data-cc-form="password"] [type="submit"]').click();
      await page.waitForEvent("load");
      page.off("response", note401);
      deepStrictEqual(unauthorized, []);
      const authStatus = async () =>
        (await app.call<{ auth_enabled: boolean }>("GET", "/api/auth/status")).body.auth_enabled;
      strictEqual(await authStatus(), true);
      // Still signed in (the response renewed the cookie), with a fresh CSRF token on the page.
      strictEqual(new URL(page.url()).pathname, "/");
      await openControlCenter(page);
      await page.locator('[data-cc-tab="system"]').click();
      await page.locator("[data-cc-block=password] [data-cc-ask]").click();
      await page.locator('[data-cc-action="password-clear"]').click();
      await page.waitForEvent("load");
      strictEqual(await authStatus(), false);
      browser.assertNoErrors();
    });
  },
);

browserTest(
  "Control Center: the language picker reloads the console in the chosen language",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const language = async () =>
        (await app.call<{ language: string }>("GET", "/api/settings")).body.language;
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      strictEqual(await page.getAttribute("html", "lang"), "en", "the browser's language");
      await openControlCenter(page);
      await page.locator('[data-cc-tab="appearance"]').click();
      const picker = page.locator('[data-cc-setting="language"]');
      strictEqual(await picker.inputValue(), "auto");
      strictEqual(
        (await picker.locator("option").first().textContent())?.trim(),
        "Follow the browser",
      );

      // Deutsch: saved, then the page reloads and the server renders it in German.
      await Promise.all([page.waitForEvent("load"), picker.selectOption({ label: "Deutsch" })]);
      strictEqual(await page.getAttribute("html", "lang"), "de");
      strictEqual(await language(), "de");
      await openControlCenter(page);
      strictEqual(
        (await page.locator('[data-cc-tab="appearance"]').textContent())?.trim(),
        "Darstellung",
      );
      await page.locator('[data-cc-tab="appearance"]').click();
      strictEqual(await picker.inputValue(), "de");
      strictEqual((await picker.locator("option").first().textContent())?.trim(), "Wie im Browser");
      await browser.screenshot(page, "control-center-language-de");

      // 日本語, then العربية: the hydrated composer speaks it too (the page's own catalog), and
      // Arabic turns the page right-to-left.
      const ja = readLocaleFiles("ja"), ar = readLocaleFiles("ar");
      await Promise.all([page.waitForEvent("load"), picker.selectOption({ label: "日本語" })]);
      strictEqual(await page.getAttribute("html", "lang"), "ja");
      strictEqual(await page.getAttribute("html", "dir"), "ltr");
      strictEqual(
        await page.locator("#composer-input").getAttribute("placeholder"),
        ja.get("composer")!["composer.placeholder"],
      );
      await openControlCenter(page);
      strictEqual(
        (await page.locator('[data-cc-tab="appearance"]').textContent())?.trim(),
        ja.get("control")!["control.tabAppearance"],
      );
      await browser.screenshot(page, "control-center-language-ja");
      await page.locator('[data-cc-tab="appearance"]').click();
      await Promise.all([page.waitForEvent("load"), picker.selectOption({ label: "العربية" })]);
      strictEqual(await page.getAttribute("html", "lang"), "ar");
      strictEqual(await page.getAttribute("html", "dir"), "rtl");
      strictEqual(
        await page.locator("#composer-input").getAttribute("placeholder"),
        ar.get("composer")!["composer.placeholder"],
      );
      await browser.screenshot(page, "console-language-ar");
      await openControlCenter(page);
      await browser.screenshot(page, "control-center-language-ar");
      await page.locator('[data-cc-tab="appearance"]').click();

      // Back to following the browser: English again.
      await Promise.all([page.waitForEvent("load"), picker.selectOption("auto")]);
      strictEqual(await page.getAttribute("html", "lang"), "en");
      strictEqual(await language(), "auto");
      await openControlCenter(page);
      strictEqual(
        (await page.locator('[data-cc-tab="appearance"]').textContent())?.trim(),
        "Appearance",
      );
      browser.assertNoErrors();
    });
  },
);
