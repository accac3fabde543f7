// Saved prompts in a real browser: save one with a {{file}} variable in Control Center › Prompts
// (its variable shows on the row), then `/prompt` in the composer offers it, a small form asks
// for {{file}}, and the draft holds the filled text; the composer's button opens the same menu;
// edit and delete. Fails on any console error; screenshots of key states.
import { ok as assert, strictEqual } from "node:assert/strict";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";

async function openPrompts(page: Page): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector("[data-cc-dialog]");
  await page.locator('[data-cc-tab="prompts"]').click();
  await page.waitForSelector("[data-cc-block=prompts]");
}

browserTest(
  "Prompts: save one with {{file}}, /prompt fills the variable into the draft",
  async () => {
    const fake = startFakeProvider({ respond: () => ({ text: "ok" }) });
    try {
      await withAppInBrowser({
        configYaml:
          `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n  api_key: k\n`,
      }, async ({ app, url, browser }) => {
        const page = await browser.newPage();
        await page.goto(`${url}/`);
        await waitForIslands(page);
        await openPrompts(page);
        await page.waitForSelector("[data-cc-block=prompts] .cc-empty");
        await page.locator('[data-cc-action="prompt-new"]').click();
        const form = page.locator('form[data-cc-form="prompt-save"]');
        await form.waitFor();
        await form.locator("#cc-prompt-name").fill("review");
        await form.locator("#cc-prompt-content").fill(
          "Review {{file}} for bugs, then {{ file }} again.",
        );
        await form.locator('[type="submit"]').click();
        const row = page.locator('[data-cc-list=prompts] [data-prompt="review"]');
        await row.waitFor();
        strictEqual(await row.locator("[data-prompt-var]").count(), 1);
        strictEqual(await row.locator('[data-prompt-var="file"]').textContent(), "{{file}}");
        await browser.screenshot(page, "prompts-list");
        await page.keyboard.press("Escape");
        await page.waitForSelector("[data-cc-dialog]", { state: "hidden" });

        // /prompt offers the saved prompts; picking one asks for its variable.
        const area = page.locator(".composer textarea");
        await area.click();
        await area.pressSequentially("/prompt ");
        const option = page.locator('[data-popover="slash"] .slash-option', { hasText: "review" });
        await option.waitFor();
        assert((await option.textContent())!.includes("{{file}}"));
        await page.keyboard.press("Enter");
        const vars = page.locator('[data-prompt-form="review"]');
        await vars.waitFor();
        const file = vars.locator('input[name="file"]');
        strictEqual(
          await page.evaluate(() => document.activeElement?.getAttribute("name")),
          "file",
        );
        strictEqual(await vars.locator('[data-action="prompt-fill"]').isDisabled(), true);
        await file.fill("lib/main.ts");
        await browser.screenshot(page, "prompts-fill");
        await page.keyboard.press("Enter");
        await vars.waitFor({ state: "detached" });
        strictEqual(
          await area.inputValue(),
          "Review lib/main.ts for bugs, then lib/main.ts again.",
        );
        strictEqual(fake.chatRequests.length, 0, "nothing was sent");

        // The button opens the same menu; a typed name works too.
        await area.fill("");
        await page.locator('[data-action="saved-prompts"]').click();
        await option.waitFor();
        await page.keyboard.press("Escape");
        await area.fill("/prompt review");
        await page.keyboard.press("Enter");
        await vars.waitFor();
        await page.locator('[data-popover="prompt"] [aria-label="Close"]').click();
        await vars.waitFor({ state: "detached" });

        // An unknown name is said in place.
        await area.fill("/prompt nope");
        await page.keyboard.press("Enter");
        await page.waitForSelector('#composer-error:has-text("No saved prompt")');

        // Edit and delete.
        await openPrompts(page);
        await page.locator('[data-cc-action="prompt-edit"][data-name="review"]').click();
        await form.locator("#cc-prompt-content").fill("Review {{file}} and {{focus}}.");
        await form.locator('[type="submit"]').click();
        await page.waitForSelector('[data-prompt="review"] [data-prompt-var="focus"]');
        const saved = await app.call<{ prompts: Array<{ variables: string[] }> }>(
          "GET",
          "/api/prompts",
        );
        strictEqual(saved.body.prompts[0].variables.join(","), "file,focus");
        await page.locator('[data-cc-action="prompt-edit"][data-name="review"]').click();
        await form.locator("[data-cc-ask]").click();
        await form.locator('[data-cc-action="prompt-delete"]').click();
        await page.waitForSelector("[data-cc-block=prompts] .cc-empty");
        browser.assertNoErrors();
      });
    } finally {
      await fake.close();
    }
  },
);
