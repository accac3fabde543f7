// The Insights view in a real browser after real turns against the fake provider: totals and
// the per-model row match GET /api/insights (and the usage the fake reported), the daily
// chart has bars, an unpriced model reads "unpriced" (never $0), presets are links and the
// custom range sends raw dates. Screenshots on desktop and a phone.
import { deepStrictEqual, ok as assert, strictEqual } from "node:assert/strict";
import { startHarness } from "../fixtures/engine_harness.ts";
import type { InsightsReport } from "../../lib/insights/insights.ts";
import { niceCeiling } from "../../components/InsightsChart.tsx";
import { browserTest, ensureIslandsBuilt, launchBrowser } from "./browser.ts";

const ANSWERS = [
  { text: "First answer.", usage: { input_tokens: 1200, output_tokens: 150 } },
  { text: "Second answer, a little longer.", usage: { input_tokens: 2300, output_tokens: 420 } },
  { text: "Third.", usage: { input_tokens: 3100, output_tokens: 95 } },
];

browserTest(
  "insights: after a few turns the view shows the fake model's usage and a daily chart",
  async () => {
    await ensureIslandsBuilt();
    const h = await startHarness();
    const browser = await launchBrowser();
    try {
      for (const [i, answer] of ANSWERS.entries()) {
        h.fake.enqueue(answer);
        const { stream_id } = await h.start(`Question ${i + 1}`);
        const result = await h.stream(stream_id);
        assert(result.events.some((e) => e.event === "stream_end"), `turn ${i + 1} ended`);
      }
      const api = (await h.call("GET", "/api/insights?days=7")).body as InsightsReport;
      const input = ANSWERS.reduce((s, a) => s + a.usage.input_tokens, 0);
      const output = ANSWERS.reduce((s, a) => s + a.usage.output_tokens, 0);
      strictEqual(api.total_input_tokens, input, "the usage the fake reported was recorded");
      strictEqual(api.total_output_tokens, output);

      const page = await browser.newPage();
      await page.goto(`${h.url}/insights?days=7`);
      strictEqual(await page.title(), "Insights · Hermes Console");
      strictEqual(
        await page.locator('.ins-preset[aria-current="page"]').textContent(),
        "7 days",
        "the preset in effect is marked",
      );

      // Totals.
      const stat = (name: string) => page.locator(`[data-stat="${name}"] dd`);
      strictEqual(await stat("sessions").textContent(), "1");
      strictEqual(await stat("messages").textContent(), String(api.total_messages));
      strictEqual(api.total_messages, 6, "three questions and three answers");
      strictEqual(
        await stat("input").getAttribute("title"),
        `${input.toLocaleString("en-US")} input tokens`,
      );
      strictEqual(await stat("output").textContent(), output.toLocaleString("en-US"));
      strictEqual(api.total_cost, null, "the fake model has no price");
      strictEqual(await stat("cost").textContent(), "unpriced");

      // The daily chart: today's bar carries every token of the window.
      const bars = page.locator(".ins-bar-output");
      strictEqual(await bars.count(), 1, "one day with usage");
      const today = api.daily_tokens.at(-1)!;
      strictEqual(
        await page.locator(`[data-chart="daily-tokens"] .ins-bar[data-date="${today.date}"]`)
          .getAttribute("data-total"),
        String(input + output),
      );
      // Drawn to scale: input + output reach total / axis maximum of the plot's height.
      const plot = (await page.locator('[data-chart="daily-tokens"] svg').boundingBox())!;
      const drawn = (await page.locator(".ins-bar-input").boundingBox())!.height +
        (await bars.first().boundingBox())!.height;
      const expected = plot.height * (input + output) / niceCeiling(input + output);
      assert(Math.abs(drawn - expected) < 2, `bar height ${drawn} ≈ ${expected}`);
      strictEqual(
        await page.locator('[data-chart="daily-tokens"] svg').getAttribute("role"),
        "img",
      );

      // The model row.
      const row = page.locator('tr[data-model="fake-model"]');
      strictEqual(await row.count(), 1);
      strictEqual(await row.locator("td").nth(0).textContent(), "3", "three turns");
      strictEqual(
        await row.locator('[data-col="input"]').textContent(),
        input.toLocaleString("en-US"),
      );
      strictEqual(
        await row.locator('[data-col="output"]').textContent(),
        output.toLocaleString("en-US"),
      );
      strictEqual(await row.locator('[data-col="cost"]').textContent(), "unpriced");
      deepStrictEqual(api.models.map((m) => m.model), ["fake-model"]);

      // Activity: six messages today, all in the weekday and hour bars.
      const weekday = await page.locator('[data-chart="weekday"] .ins-bar').evaluateAll((gs) =>
        gs.map((g) => Number(g.getAttribute("data-value")))
      );
      deepStrictEqual(weekday, api.activity_by_day);
      strictEqual(weekday.reduce((s, n) => s + n, 0), 6);
      await browser.screenshot(page, "insights-desktop");

      // Presets are plain links.
      await page.locator('.ins-preset[data-days="90"]').click();
      await page.waitForURL(/\/insights\?days=90$/);
      strictEqual(await page.locator('.ins-preset[aria-current="page"]').textContent(), "90 days");

      // The custom range sends the two dates as typed (YYYY-MM-DD), read in the server's zone.
      await page.locator('input[name="start"]').fill("2020-01-01");
      await page.locator('input[name="end"]').fill("2020-01-31");
      await page.locator(".ins-range-apply").click();
      await page.waitForURL(/start=2020-01-01&end=2020-01-31$/);
      strictEqual(await page.locator(".ins-period").getAttribute("data-mode"), "custom");
      assert((await page.locator(".ins-period").textContent())!.startsWith("Jan 1 – Jan 31, 2020"));
      strictEqual(await page.locator("[data-empty]").count(), 1, "nothing happened in 2020");
      strictEqual(
        await page.locator('input[name="start"]').inputValue(),
        "2020-01-01",
        "the chosen range stays in the inputs",
      );
      strictEqual(await page.locator('.ins-preset[aria-current="page"]').count(), 0);

      // A phone.
      const phone = await browser.newPage({ width: 390, height: 844 });
      await phone.goto(`${h.url}/insights?days=30`);
      await phone.waitForSelector(".ins-bar-output");
      await browser.screenshot(phone, "insights-phone");
      const overflow = await phone.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      strictEqual(overflow, 0, "nothing is wider than the phone");
      browser.assertNoErrors();
    } finally {
      await browser.close();
      await h.close();
    }
  },
);
