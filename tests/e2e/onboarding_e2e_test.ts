// The first-run wizard in a real browser: a fresh state dir and no config.yaml send `/` to
// /onboarding; choosing a custom OpenAI-compatible URL (the fake provider), testing it,
// picking one of its models and finishing writes config.yaml and lands in the console,
// where the first message gets the fake model's answer. Skipping never traps anyone.
import { match, ok as assert, strictEqual } from "node:assert/strict";
import { parseDocument } from "yaml";
import { createTestApp, serveTestApp, type TestApp } from "../helpers.ts";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { browserTest, ensureIslandsBuilt, launchBrowser, waitForIslands } from "./browser.ts";

/** A loopback port with nothing listening (bound, then released). */
function closedPort(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** A first-run app: no config file, onboarding not skipped, no local servers to detect. */
function freshApp(): Promise<TestApp> {
  const nowhere = closedPort();
  return createTestApp({
    env: {
      HERMES_WEBUI_SKIP_ONBOARDING: "",
      OLLAMA_HOST: nowhere,
      LMSTUDIO_BASE_URL: `${nowhere}/v1`,
    },
  });
}

browserTest("onboarding: from a fresh state to the fake provider's first answer", async () => {
  await ensureIslandsBuilt();
  const fake = startFakeProvider({
    models: ["fake-model", "fake-model-large"],
    respond: () => ({ text: "Hello from the fake model, ready to work." }),
  });
  const app = await freshApp();
  const server = serveTestApp(app);
  const browser = await launchBrowser();
  try {
    let configExists = await Deno.stat(app.ctx.config.configPath).then(
      () => true,
      () => false,
    );
    strictEqual(configExists, false, "a fresh start has no config file");

    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/onboarding`);
    await page.waitForSelector("form[data-ob]");
    strictEqual(
      await page.locator('.ob-choice[data-provider="ollama"]').textContent().then((t) =>
        t?.includes("Not running")
      ),
      true,
      "no local Ollama was detected",
    );
    strictEqual(await page.locator('[data-ob-action="next"]').isDisabled(), true);
    await browser.screenshot(page, "onboarding-start");

    // Custom endpoint: a wrong URL first, the error is shown in words.
    await page.locator('.ob-choice[data-provider="custom"]').click();
    const url = page.locator("#ob-base-url");
    strictEqual(await url.isVisible(), true, "custom asks for a base URL");
    await url.fill(`${closedPort()}/v1`);
    await page.locator('[data-ob-action="probe"]').click();
    await page.waitForSelector('[data-ob-probe][data-tone="error"]');
    assert((await page.locator("[data-ob-probe]").textContent())!.length > 10);

    // The fake's URL: the probe lists its models.
    await url.fill(fake.baseUrl);
    await page.locator('[data-ob-action="probe"]').click();
    await page.waitForSelector('[data-ob-probe][data-tone="success"]');
    strictEqual(
      await page.locator("[data-ob-probe]").textContent(),
      "Connected: 2 models available.",
    );
    await browser.screenshot(page, "onboarding-probed");

    await page.locator('[data-ob-action="next"]').click();
    await page.waitForSelector('[data-ob-step="model"]:not([hidden])');
    const options = await page.locator("#ob-model option").allTextContents();
    strictEqual(options.join(","), "fake-model,fake-model-large");
    await page.selectOption("#ob-model", "fake-model-large");
    strictEqual(await page.locator("#ob-workspace").inputValue(), app.workspace);
    await browser.screenshot(page, "onboarding-model");

    await page.locator('[data-ob-action="next"]').click();
    await page.waitForURL(`${server.url}/`);
    await waitForIslands(page);

    // config.yaml now names the provider, its URL and the chosen model.
    const config = parseDocument(
      await Deno.readTextFile(app.ctx.config.configPath),
    ).toJS() as { model: Record<string, string> };
    strictEqual(config.model.provider, "custom");
    strictEqual(config.model.base_url, fake.baseUrl);
    strictEqual(config.model.default, "fake-model-large");
    configExists = true;

    // The console is ready: the first message gets the fake model's answer.
    await page.locator("#composer-input").click();
    await page.keyboard.type("Are you there?");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () =>
        document.querySelector(".transcript")?.textContent?.includes(
          "Hello from the fake model, ready to work.",
        ),
      undefined,
      { timeout: 30_000 },
    );
    strictEqual(fake.chatRequests.length, 1);
    strictEqual(fake.chatRequests[0].body.model, "fake-model-large");
    await browser.screenshot(page, "onboarding-first-answer");

    // Onboarding is done: `/` no longer sends anyone to the wizard.
    await page.goto(`${server.url}/`);
    strictEqual(new URL(page.url()).pathname, "/");
    browser.assertNoErrors();
  } finally {
    await browser.close();
    await server.shutdown();
    await app.close();
    await fake.close();
  }
});

browserTest("onboarding: Skip for now lands in the console and the wizard stays away", async () => {
  await ensureIslandsBuilt();
  const app = await freshApp();
  const server = serveTestApp(app);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ width: 390, height: 780 });
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/onboarding`);
    await page.locator('.ob-choice[data-provider="openai"]').click();
    strictEqual(await page.locator("#ob-base-url").isVisible(), false, "OpenAI has its own URL");
    strictEqual(await page.locator("#ob-api-key").isVisible(), true, "but needs a key");
    // No key: the test says so before any request is made.
    await page.locator('[data-ob-action="probe"]').click();
    match((await page.locator("[data-ob-probe]").textContent())!, /needs an API key/);
    await browser.screenshot(page, "onboarding-phone");

    await page.locator('[data-ob-action="skip"]').click();
    await page.waitForURL(`${server.url}/`);
    await waitForIslands(page);
    await page.reload();
    strictEqual(new URL(page.url()).pathname, "/", "skipped once: not shown again");
    const status = await app.call<{ needed: boolean }>("GET", "/api/onboarding/status");
    strictEqual(status.body.needed, false);
    browser.assertNoErrors();
  } finally {
    await browser.close();
    await server.shutdown();
    await app.close();
  }
});
