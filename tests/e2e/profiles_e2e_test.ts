// Profiles in a real browser: create one in Control Center › Profiles (model and personality),
// make it the active one, and a new chat shows its chip and runs on its model (the fake provider
// records it); the composer's chip switches back; deleting a profile with chats asks what to do
// with them and moves them to default. Fails on any console error; screenshots of key states.
import { ok as assert, strictEqual } from "node:assert/strict";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";

async function openProfiles(page: Page): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector("[data-cc-dialog]");
  await page.locator('[data-cc-tab="profiles"]').click();
  await page.waitForSelector("[data-cc-list=profiles]");
}

browserTest(
  "Profiles: create, switch, a new chat shows its chip and uses its model, delete",
  async () => {
    const fake = startFakeProvider({ respond: () => ({ text: "Answered by the work profile." }) });
    try {
      await withAppInBrowser({
        configYaml:
          `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n` +
          "  api_key: k\nagent:\n  personalities:\n    terse: Answer in one sentence.\n",
      }, async ({ app, url, browser }) => {
        const page = await browser.newPage();
        await page.goto(`${url}/`);
        await waitForIslands(page);
        // Only `default` exists: no chip yet (nothing to choose).
        strictEqual(await page.locator('[data-chip="profile"]').count(), 0);
        await openProfiles(page);
        const def = page.locator('[data-cc-list=profiles] [data-profile="default"]');
        strictEqual(await def.getAttribute("data-active"), "true");

        await page.locator('[data-cc-action="profile-new"]').click();
        const form = page.locator('form[data-cc-form="profile-save"]');
        await form.waitFor();
        strictEqual(await page.evaluate(() => document.activeElement?.id), "cc-profile-name");
        await form.locator('[type="submit"]').click();
        await page.waitForSelector('[data-cc-status="profile-form"][data-tone="error"]');
        await form.locator("#cc-profile-name").fill("work");
        await form.locator("#cc-profile-model").fill("fake-model-large");
        await form.locator("#cc-profile-personality").selectOption("terse");
        await browser.screenshot(page, "profiles-form");
        await form.locator('[type="submit"]').click();
        const work = page.locator('[data-cc-list=profiles] [data-profile="work"]');
        await work.waitFor();
        assert((await work.textContent())!.includes("fake-model-large"));
        assert((await work.textContent())!.includes("0 chats"));
        strictEqual(await work.getAttribute("data-active"), "false");

        await page.locator('[data-cc-action="profile-switch"][data-name="work"]').click();
        await page.waitForSelector(
          '[data-cc-list=profiles] [data-profile="work"][data-active="true"]',
        );
        await browser.screenshot(page, "profiles-active");
        strictEqual((await app.call("GET", "/api/profile/active")).body.name, "work");

        // A new chat: the chip shows the active profile and the chat runs on its model.
        await page.goto(`${url}/`);
        await waitForIslands(page);
        const chip = page.locator('[data-chip="profile"]');
        strictEqual((await chip.textContent())?.trim(), "work");
        await page.locator(".composer textarea").fill("hello");
        await page.keyboard.press("Enter");
        await page.waitForSelector("text=Answered by the work profile.");
        const last = fake.chatRequests[fake.chatRequests.length - 1];
        strictEqual(last.body?.model, "fake-model-large", "the chat used the profile's model");
        assert(JSON.stringify(last.body).includes("Answer in one sentence."), "its personality");
        await page.waitForURL(/session=/);
        await page.reload();
        await waitForIslands(page);
        strictEqual((await page.locator('[data-chip="profile"]').textContent())?.trim(), "work");
        await browser.screenshot(page, "profiles-chat-chip");
        // On a phone the chip stays inside the composer.
        await page.setViewportSize({ width: 390, height: 844 });
        const box = (await page.locator('[data-chip="profile"]').boundingBox())!;
        const bar = (await page.locator(".composer-box").boundingBox())!;
        assert(box.x + box.width <= bar.x + bar.width, "the chip fits the composer");
        await browser.screenshot(page, "profiles-chat-chip-phone");
        await page.setViewportSize({ width: 1280, height: 800 });

        // The chip offers the profiles; picking default makes it active for new chats.
        await page.locator('[data-chip="profile"]').click();
        await page.locator('[data-popover="profile"] [data-profile="default"]').click();
        await page.waitForSelector('.composer-flash:has-text("default profile")');
        strictEqual((await app.call("GET", "/api/profile/active")).body.name, "default");
        // This chat keeps its own profile.
        strictEqual((await page.locator('[data-chip="profile"]').textContent())?.trim(), "work");

        // Deleting work, which has a chat, asks what becomes of it.
        await openProfiles(page);
        assert((await work.textContent())!.includes("1 chat"));
        await page.locator('[data-cc-action="profile-edit"][data-name="work"]').click();
        await form.waitFor();
        await form.locator("[data-cc-ask]").click();
        await browser.screenshot(page, "profiles-delete-ask");
        await form.locator('[data-cc-action="profile-delete"][data-sessions="move"]').click();
        await work.waitFor({ state: "detached" });
        assert((await def.textContent())!.includes("1 chat"));
        const status = await page.locator('[data-cc-status="profiles"]').textContent();
        assert(status!.includes("moved to default"), status!);
        strictEqual(browser.errors.length, 0, browser.errors.join("\n"));
      });
    } finally {
      await fake.close();
    }
  },
);
