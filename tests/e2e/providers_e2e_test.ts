// The Providers panel in a real browser: add an OpenAI-compatible endpoint pointing at the fake
// provider, test the connection and see its models, edit the key (shown masked; the mask kept
// means the stored key), see the metered usage, set the auxiliary model and reasoning effort,
// and delete the endpoint. config.yaml keeps its comments throughout.
import { deepStrictEqual, match, ok as assert, strictEqual } from "node:assert/strict";
import { parseDocument } from "yaml";
import { browserTest, type Page, withAppInBrowser } from "./browser.ts";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { sql } from "../../lib/storage/db.ts";

async function openProviders(page: Page): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector("[data-cc-dialog]");
  await page.locator('[data-cc-tab="providers"]').click();
  await page.waitForFunction(() => document.documentElement.dataset.providersPanel === "ready");
}

const readConfig = async (path: string) =>
  // deno-lint-ignore no-explicit-any
  parseDocument(await Deno.readTextFile(path)).toJS() as any;

browserTest(
  "Providers panel: add a custom endpoint, test it, edit its key, delete it",
  async () => {
    const fake = startFakeProvider({ models: ["fake-alpha", "fake-beta"] });
    try {
      await withAppInBrowser({
        configYaml:
          "# my settings\nmodel:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n" +
          "  default: local-model\n",
      }, async ({ app, url, browser }) => {
        const configPath = app.ctx.config.configPath;
        const page = await browser.newPage();
        await page.goto(`${url}/`);
        await openProviders(page);
        await browser.screenshot(page, "providers-panel");

        // Add: a custom endpoint at the fake provider.
        await page.locator("[data-pv-add] > summary").click();
        const add = page.locator('form[data-pv-form="add"]');
        await add.locator('[name="provider"]').selectOption("custom");
        await add.locator('[name="name"]').fill("fakeprov");
        await add.locator('[name="base_url"]').fill(fake.baseUrl);
        await add.locator('[name="api_key"]').fill("fake-secret-key-0001");
        await add.locator('[data-pv-action="test"]').click();
        await add.locator('[data-pv-test][data-tone="success"]').waitFor();
        deepStrictEqual(
          await add.locator(".pv-models li").allTextContents(),
          ["fake-alpha", "fake-beta"],
          "Test connection lists the endpoint's models before saving",
        );
        await browser.screenshot(page, "providers-add-tested");
        await add.locator('[type="submit"]').click();

        const item = page.locator('[data-pv-provider="custom:fakeprov"]');
        await item.waitFor();
        strictEqual(
          await item.locator("details").getAttribute("open"),
          "",
          "the saved item is open",
        );
        match((await item.locator("[data-cc-status]").textContent())!, /Added/);
        const keyField = item.locator('[name="api_key"]');
        strictEqual(await keyField.inputValue(), "fake-…0001", "the key comes back masked");
        let cfg = await readConfig(configPath);
        strictEqual(cfg.custom_providers[0].api_key, "fake-secret-key-0001");
        assert((await Deno.readTextFile(configPath)).startsWith("# my settings"));

        // A metered turn on this endpoint shows as usage once the panel renders again.
        const session = await app.call<{ session: { session_id: string } }>(
          "POST",
          "/api/session/new",
          {},
        );
        await app.ctx.db.run(
          sql`INSERT INTO usage (session_id, model, model_provider, input_tokens, output_tokens,
                cost, created_at)
              VALUES (${session.body.session.session_id}, 'fake-alpha', 'custom:fakeprov', 1200,
                300, 0.0123, ${Date.now() / 1000})`,
        );

        // Edit the models, keeping the masked key: the stored key stays and still works.
        await item.locator('[name="models"]').fill("fake-alpha");
        await item.locator('[type="submit"]').click();
        await page.waitForFunction(() =>
          /Saved/.test(
            document.querySelector('[data-pv-provider="custom:fakeprov"] [data-cc-status]')
              ?.textContent ?? "",
          )
        );
        cfg = await readConfig(configPath);
        strictEqual(cfg.custom_providers[0].api_key, "fake-secret-key-0001");
        deepStrictEqual(cfg.custom_providers[0].models, ["fake-alpha"]);
        await item.locator(".pv-spark").waitFor();
        match((await item.locator(".pv-summary-usage").textContent())!, /\$0\.0123/);
        match(
          (await item.locator("[data-pv-usage] tbody tr").first().textContent())!,
          /1,200 \/ 300/,
        );
        fake.requests.length = 0;
        await item.locator('[data-pv-action="test"]').click();
        await item.locator('[data-pv-test][data-tone="success"]').waitFor();
        strictEqual(fake.requests.at(-1)?.headers.authorization, "Bearer fake-secret-key-0001");

        // Replace the key.
        await item.locator('[name="api_key"]').fill("fake-secret-key-0002");
        await item.locator('[type="submit"]').click();
        await page.waitForFunction(() =>
          (document.querySelector<HTMLInputElement>(
            '[data-pv-provider="custom:fakeprov"] [name="api_key"]',
          )?.value ?? "") === "fake-…0002"
        );
        strictEqual(
          (await readConfig(configPath)).custom_providers[0].api_key,
          "fake-secret-key-0002",
        );
        await browser.screenshot(page, "providers-edited");

        // Auxiliary model and reasoning effort.
        const roles = page.locator('form[data-pv-form="roles"]');
        await roles.locator('[name="auxiliary"]').fill("fake-alpha");
        await roles.locator('[name="reasoning"]').selectOption("low");
        await roles.locator('[type="submit"]').click();
        await page.waitForFunction(() =>
          /Saved/.test(document.querySelector('[data-cc-status="model-roles"]')?.textContent ?? "")
        );
        cfg = await readConfig(configPath);
        strictEqual(cfg.model.auxiliary, "fake-alpha");
        strictEqual(cfg.agent.reasoning_effort, "low");

        // Delete, in two steps.
        await item.locator("summary").click();
        await item.locator("[data-cc-ask]").click();
        await item.locator('[data-cc-action="pv-delete"]').click();
        await page.locator('[data-pv-provider="custom:fakeprov"]').waitFor({ state: "detached" });
        strictEqual((await readConfig(configPath)).custom_providers, undefined);
        assert((await Deno.readTextFile(configPath)).startsWith("# my settings"));
        await browser.screenshot(page, "providers-deleted");
        browser.assertNoErrors();
      });
    } finally {
      await fake.close();
    }
  },
);
