// GET /insights, the server-rendered Insights view: totals, the per-model table and the daily
// chart come from lib/insights/insights.ts for the window the query selects; a model without a price
// reads "unpriced" (never $0); presets are links; an unusable custom bound falls back to the
// trailing window and says why; blank date inputs count as omitted bounds.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";
import { type AsyncQueries, sql } from "../lib/storage/db.ts";
import { formatCost } from "../routes/insights.tsx";
import { niceCeiling, tokenBuckets } from "../components/InsightsChart.tsx";

const at = (iso: string) => Date.parse(iso) / 1000;
const NOW = at("2026-03-10T15:30:00Z");

async function seed(db: AsyncQueries): Promise<void> {
  await db.run(
    sql`INSERT INTO sessions (session_id, title, workspace, created_at, updated_at)
        VALUES ('aaaaaaaaaaaa', 'S', '/tmp', ${NOW - 86_400}, ${NOW - 86_400})`,
  );
  const turns: Array<
    [string, string, number, number, number | null, number, number, number, number]
  > = [
    ["gpt-5-mini", "openai", 1000, 200, 0.0125, 420, 41.5, 2, NOW - 86_400],
    ["gpt-5-mini", "openai", 3000, 400, 0.0375, 380, 38.5, 1, NOW - 3600],
    ["local-llama", "ollama", 5000, 900, null, 1500, 12, 0, NOW - 7200],
  ];
  for (const [model, provider, input, output, cost, ttft, tps, tools, t] of turns) {
    await db.run(
      sql`INSERT INTO usage (session_id, model, model_provider, input_tokens, output_tokens,
            cached_tokens, cost, ttft_ms, tokens_per_s, tool_count, created_at)
          VALUES ('aaaaaaaaaaaa', ${model}, ${provider}, ${input}, ${output}, 0, ${cost}, ${ttft},
            ${tps}, ${tools}, ${t})`,
    );
  }
  const msgs: Array<[string, number]> = [
    ["user", NOW - 86_400],
    ["assistant", NOW - 86_390],
    ["user", NOW - 3600],
  ];
  for (const [i, [role, t]] of msgs.entries()) {
    await db.run(
      sql`INSERT INTO messages (session_id, idx, role, content, timestamp)
          VALUES ('aaaaaaaaaaaa', ${i}, ${role}, 'x', ${t})`,
    );
  }
}

async function withApp(fn: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await createTestApp({ env: { TZ: "UTC" }, clock: () => NOW });
  try {
    await seed(app.ctx.db);
    await fn(app);
  } finally {
    await app.close();
  }
}

async function page(app: TestApp, query: string): Promise<string> {
  const res = await app.request("GET", `/insights${query}`);
  strictEqual(res.status, 200);
  strictEqual(res.headers.get("content-type"), "text/html; charset=utf-8");
  return await res.text();
}

/** The text of the `<dd>` of stat `name`. */
function stat(html: string, name: string): string {
  const m = html.match(new RegExp(`data-stat="${name}"><dt>[^<]*</dt><dd[^>]*>(.*?)</dd>`));
  ok(m, `stat ${name} is rendered`);
  return m[1].replace(/<[^>]+>/g, "");
}

Deno.test("GET /insights renders totals, per-model rows and the daily chart", async () => {
  await withApp(async (app) => {
    const html = await page(app, "?days=7");
    strictEqual(stat(html, "sessions"), "1");
    strictEqual(stat(html, "messages"), "3");
    strictEqual(stat(html, "input"), "9,000");
    strictEqual(stat(html, "output"), "1,500");
    // Priced turns sum to $0.05; the unpriced one is flagged, not counted as $0.
    strictEqual(stat(html, "cost"), "$0.05 + unpriced");
    ok(html.includes('data-model="local-llama"'));
    const llama = html.slice(html.indexOf('data-model="local-llama"'));
    ok(
      llama.slice(0, llama.indexOf("</tr>")).includes('<span class="ins-unpriced">unpriced</span>'),
      "an unpriced model says so",
    );
    ok(!llama.slice(0, llama.indexOf("</tr>")).includes("$0"), "never $0");
    // Two days with usage in a window of eight local days (seven back from mid-afternoon).
    strictEqual(html.match(/class="ins-bar-output"/g)?.length, 2);
    strictEqual(html.match(/<g class="ins-bar" data-date=/g)?.length, 8);
    ok(html.includes('aria-current="page" data-days="7"'), "the 7-day preset is current");
    ok(html.includes('href="/insights?days=30"'), "presets are plain links");
    // With no range picked, the custom inputs offer the last 30 days.
    ok(html.includes('name="start" value="2026-02-09"'));
    ok(html.includes('name="end" value="2026-03-10" max="2026-03-10"'));
  });
});

Deno.test("GET /insights with start/end dates serves that range and keeps it in the inputs", async () => {
  await withApp(async (app) => {
    const html = await page(app, "?start=2026-03-09&end=2026-03-09");
    ok(html.includes('data-mode="custom"'));
    ok(html.includes(">Mar 9, 2026<"), "the period is named");
    strictEqual(stat(html, "input"), "1,000", "only the turn of Mar 9");
    ok(html.includes('name="start" value="2026-03-09"'));
    ok(html.includes('name="end" value="2026-03-09"'));
    ok(!html.includes('aria-current="page" data-days'), "no preset is current");
  });
});

Deno.test("GET /insights falls back to the trailing window on an impossible date and says why", async () => {
  await withApp(async (app) => {
    const html = await page(app, "?start=2026-02-31&end=2026-03-05");
    ok(html.includes('data-mode="trailing"'));
    ok(html.includes("Showing the last 30 days instead:"));
    ok(html.includes("2026-02-31"), "the notice names the bound");
  });
});

Deno.test("GET /insights treats blank date inputs as omitted bounds", async () => {
  await withApp(async (app) => {
    // An end alone reaches back 30 calendar days (seed §4.12).
    const html = await page(app, "?start=&end=2026-03-09");
    ok(html.includes('data-mode="custom"'));
    ok(html.includes("Feb 8 – Mar 9, 2026"), html.match(/ins-period[^>]*>([^<]*)/)?.[1]);
  });
});

Deno.test("GET /insights on an idle window says there is nothing to show", async () => {
  await withApp(async (app) => {
    const html = await page(app, "?start=2025-01-01&end=2025-01-31");
    ok(html.includes("data-empty"));
    strictEqual(stat(html, "cost"), "$0.00", "no turns: nothing was spent");
  });
});

Deno.test("formatCost() keeps small costs visible and null unpriced", () => {
  strictEqual(formatCost(null), "unpriced");
  strictEqual(formatCost(0), "$0.00");
  strictEqual(formatCost(0.0042), "$0.0042");
  strictEqual(formatCost(0.00001), "<$0.0001");
  strictEqual(formatCost(12.345), "$12.35");
});

Deno.test("tokenBuckets() groups long windows into weeks and niceCeiling() rounds the axis", () => {
  const day = (i: number) => ({
    date: `2026-01-${String(i + 1).padStart(2, "0")}`,
    input_tokens: 1,
    output_tokens: 2,
    cost: 0,
    turns: 1,
    estimated_turns: 0,
  });
  strictEqual(tokenBuckets(Array.from({ length: 30 }, (_, i) => day(i % 28))).unit, "day");
  const long = tokenBuckets(Array.from({ length: 401 }, (_, i) => day(i % 28)));
  strictEqual(long.unit, "week");
  strictEqual(long.buckets.length, 58);
  strictEqual(long.buckets[0].input_tokens, 7);
  strictEqual(long.buckets.at(-1)!.turns, 2, "the last partial week keeps its days");
  strictEqual(niceCeiling(0), 1);
  strictEqual(niceCeiling(7265), 10_000);
  strictEqual(niceCeiling(2100), 2500);
  strictEqual(niceCeiling(400), 500);
});
