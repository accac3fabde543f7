// Control Center › Tasks in a real browser: create a task from the form (a bad schedule is
// said in place), run it now through the engine and the fake provider, read its history with
// the answer's first line and open its session, pause and resume, edit, delete.
import { ok as assert, strictEqual } from "node:assert/strict";
import { startFakeProvider } from "../fixtures/fake_provider.ts";
import { browserTest, type Page, withAppInBrowser } from "./browser.ts";

async function openTasks(page: Page): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector("[data-cc-dialog]");
  await page.locator('[data-cc-tab="tasks"]').click();
}

browserTest("Tasks panel: create, run now, history, pause/resume, edit, delete", async () => {
  const fake = startFakeProvider({ script: [{ text: "Digest: three new issues today." }] });
  try {
    await withAppInBrowser({
      configYaml:
        `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n  api_key: k\n`,
    }, async ({ app, url, browser }) => {
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await openTasks(page);
      await page.waitForSelector("[data-cc-block=tasks] .cc-empty");
      await browser.screenshot(page, "tasks-empty");

      await page.locator('[data-cc-action="task-new"]').click();
      const form = page.locator('form[data-cc-form="task-save"]');
      await form.waitFor();
      strictEqual(await page.evaluate(() => document.activeElement?.id), "cc-task-name");
      await form.locator("#cc-task-name").fill("Morning digest");
      await form.locator("#cc-task-prompt").fill("Summarize what changed overnight.");
      await form.locator("#cc-task-schedule").fill("whenever");
      await form.locator('[type="submit"]').click();
      await page.waitForSelector('[data-cc-status="task-form"][data-tone="error"]');
      assert(
        (await page.locator('[data-cc-status="task-form"]').textContent())!.includes("whenever"),
      );

      await form.locator("#cc-task-schedule").fill("0 9 * * 1-5");
      await browser.screenshot(page, "tasks-form");
      await form.locator('[type="submit"]').click();
      const row = page.locator("[data-cc-list=tasks] [data-task]");
      await row.waitFor();
      strictEqual(await row.getAttribute("data-state"), "scheduled");
      assert((await row.textContent())!.includes("0 9 * * 1-5"));
      const { body } = await app.call<{ jobs: Array<{ id: string; timezone: string }> }>(
        "GET",
        "/api/crons",
      );
      strictEqual(body.jobs.length, 1);
      const browserZone = await page.evaluate(() =>
        Intl.DateTimeFormat().resolvedOptions().timeZone
      );
      strictEqual(body.jobs[0].timezone, browserZone, "read in the browser's zone");
      const id = body.jobs[0].id;

      await page.locator(`[data-cc-action="task-run"][data-name="${id}"]`).click();
      await page.waitForSelector(`[data-task-history="${id}"]`);
      // The run ends on its own; the history shows it once the panel is rendered again.
      for (let i = 0; i < 100; i++) {
        const h = await app.call<{ runs: Array<{ status: string }> }>(
          "GET",
          `/api/crons/history?job_id=${id}`,
        );
        if (h.body.runs[0]?.status === "completed") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await page.locator(`[data-cc-action="task-history"][data-name="${id}"]`).click();
      const run = page.locator('[data-task-run][data-status="completed"]');
      await run.waitFor();
      assert((await run.textContent())!.includes("Digest: three new issues today."));
      await browser.screenshot(page, "tasks-history");
      await run.locator("a", { hasText: "Open session" }).click();
      await page.waitForURL(/session=/);
      await page.waitForSelector("text=Digest: three new issues today.");

      await openTasks(page);
      const toggle = page.locator(`input[data-cc-action="task-toggle"][data-name="${id}"]`);
      await toggle.click({ force: true });
      await page.waitForSelector(`[data-task="${id}"][data-state="paused"]`);
      await page.locator(`input[data-cc-action="task-toggle"][data-name="${id}"]`).click({
        force: true,
      });
      await page.waitForSelector(`[data-task="${id}"][data-state="scheduled"]`);

      await page.locator(`[data-cc-action="task-edit"][data-name="${id}"]`).click();
      await form.locator("#cc-task-schedule").fill("every 2 hours");
      await form.locator('[type="submit"]').click();
      await page.waitForSelector(`[data-task="${id}"] >> text=every 2 hours`);

      await page.locator(`[data-cc-action="task-edit"][data-name="${id}"]`).click();
      await form.locator("[data-cc-ask]").click();
      await form.locator('[data-cc-action="task-delete"]').click();
      await page.waitForSelector("[data-cc-block=tasks] .cc-empty");
      // The one error the page saw is the refused schedule, said in place above.
      strictEqual(browser.errors.length, 1, browser.errors.join("\n"));
      assert(browser.errors[0].includes("400"), browser.errors[0]);
    });
  } finally {
    await fake.close();
  }
});
