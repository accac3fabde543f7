// GET /api/insights over seeded usage and message rows: totals equal the daily series, unpriced
// turns are never $0, per-model rows, and activity counted in the server's local time (TZ).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers.ts";
import type { InsightsReport } from "../../lib/insights/insights.ts";
import { type AsyncQueries, sql } from "../../lib/storage/db.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const NOW = at("2026-03-10T15:30:00-04:00");
const TZ = "America/New_York";

async function seedSession(db: AsyncQueries, id: string, t: number): Promise<void> {
  await db.run(
    sql`INSERT INTO sessions (session_id, title, workspace, created_at, updated_at)
        VALUES (${id}, 'S', '/tmp', ${t}, ${t})`,
  );
}

let msgIdx = 0;
async function seedMessage(
  db: AsyncQueries,
  session: string,
  role: string,
  t: number,
): Promise<void> {
  await db.run(
    sql`INSERT INTO messages (session_id, idx, role, content, timestamp)
        VALUES (${session}, ${msgIdx++}, ${role}, 'x', ${t})`,
  );
}

interface Turn {
  session: string;
  model: string;
  provider?: string;
  t: number;
  input: number;
  output: number;
  cost: number | null;
  ttft?: number | null;
  tps?: number | null;
  tools?: number;
  cached?: number;
}

async function seedTurn(db: AsyncQueries, u: Turn): Promise<void> {
  await db.run(
    sql`INSERT INTO usage (session_id, model, model_provider, input_tokens, output_tokens,
          cached_tokens, cost, ttft_ms, tokens_per_s, tool_count, created_at)
        VALUES (${u.session}, ${u.model}, ${u.provider ?? "openai"}, ${u.input}, ${u.output},
          ${u.cached ?? 0}, ${u.cost}, ${u.ttft ?? null}, ${u.tps ?? null}, ${u.tools ?? 0},
          ${u.t})`,
  );
}

async function withApp(fn: (app: TestApp) => Promise<void>, now = NOW): Promise<void> {
  const app = await createTestApp({ env: { TZ }, clock: () => now });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

async function insights(app: TestApp, query: string): Promise<InsightsReport> {
  const res = await app.call<InsightsReport>("GET", `/api/insights?${query}`);
  strictEqual(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

function sumDaily(r: InsightsReport) {
  return {
    input: r.daily_tokens.reduce((s, d) => s + d.input_tokens, 0),
    output: r.daily_tokens.reduce((s, d) => s + d.output_tokens, 0),
    cost: r.daily_tokens.reduce((s, d) => s + (d.cost ?? 0), 0),
  };
}

Deno.test("GET /api/insights totals and the daily series cover the same DST-spanning window", async () => {
  await withApp(async (app) => {
    const db = app.ctx.db;
    await seedSession(db, "aaaaaaaaaaaa", at("2026-03-01T00:00:00-05:00"));
    await seedSession(db, "bbbbbbbbbbbb", at("2026-03-01T00:00:00-05:00"));
    const rows: Turn[] = [
      // Just before the window: the last second of 2026-03-05.
      {
        session: "aaaaaaaaaaaa",
        model: "gpt-4o",
        t: at("2026-03-05T23:59:59-05:00"),
        input: 1000,
        output: 1000,
        cost: 1,
      },
      {
        session: "aaaaaaaaaaaa",
        model: "gpt-4o",
        t: at("2026-03-06T00:00:00-05:00"),
        input: 100,
        output: 10,
        cost: 0.5,
      },
      {
        session: "aaaaaaaaaaaa",
        model: "gpt-4o",
        t: at("2026-03-07T12:00:00-05:00"),
        input: 200,
        output: 20,
        cost: 0.25,
      },
      // 03:30 on the spring-forward day exists only in EDT.
      {
        session: "bbbbbbbbbbbb",
        model: "gpt-4o",
        t: at("2026-03-08T03:30:00-04:00"),
        input: 300,
        output: 30,
        cost: 0.125,
      },
      // The last second of the window's final day, and the first second after it.
      {
        session: "bbbbbbbbbbbb",
        model: "gpt-4o",
        t: at("2026-03-09T23:59:59-04:00"),
        input: 400,
        output: 40,
        cost: 0.0625,
      },
      {
        session: "bbbbbbbbbbbb",
        model: "gpt-4o",
        t: at("2026-03-10T00:00:00-04:00"),
        input: 5000,
        output: 5000,
        cost: 5,
      },
    ];
    for (const r of rows) await seedTurn(db, r);

    const report = await insights(app, "start=2026-03-06&end=2026-03-09");
    strictEqual(report.mode, "custom");
    strictEqual(report.start, at("2026-03-06T00:00:00-05:00"));
    strictEqual(report.end, at("2026-03-10T00:00:00-04:00"));
    strictEqual(report.timezone, TZ);
    deepStrictEqual(
      report.daily_tokens.map((d) => [d.date, d.input_tokens, d.output_tokens, d.cost]),
      [
        ["2026-03-06", 100, 10, 0.5],
        ["2026-03-07", 200, 20, 0.25],
        ["2026-03-08", 300, 30, 0.125],
        ["2026-03-09", 400, 40, 0.0625],
      ],
    );
    strictEqual(report.total_input_tokens, 1000);
    strictEqual(report.total_output_tokens, 100);
    strictEqual(report.total_cost, 0.9375);
    strictEqual(report.total_turns, 4);
    const sums = sumDaily(report);
    strictEqual(sums.input, report.total_input_tokens);
    strictEqual(sums.output, report.total_output_tokens);
    strictEqual(sums.cost, report.total_cost);
    strictEqual(report.total_sessions, 2);
    strictEqual(report.period_days, 4);
  });
});

Deno.test("GET /api/insights counts an unpriced model as unpriced, never as $0", async () => {
  await withApp(async (app) => {
    const db = app.ctx.db;
    await seedSession(db, "aaaaaaaaaaaa", NOW - 86400 * 3);
    const day1 = at("2026-03-08T10:00:00-04:00");
    const day2 = at("2026-03-09T10:00:00-04:00");
    await seedTurn(db, {
      session: "aaaaaaaaaaaa",
      model: "gpt-4o",
      t: day1,
      input: 1000,
      output: 500,
      cost: 0.0075,
      ttft: 200,
      tps: 40,
      tools: 2,
    });
    await seedTurn(db, {
      session: "aaaaaaaaaaaa",
      model: "gpt-4o",
      t: day1 + 60,
      input: 1000,
      output: 500,
      cost: 0.0075,
      ttft: 400,
      tps: null,
      tools: 1,
      cached: 300,
    });
    await seedTurn(db, {
      session: "aaaaaaaaaaaa",
      model: "llama3.1:8b",
      provider: "ollama",
      t: day2,
      input: 700,
      output: 70,
      cost: null,
      ttft: 50,
      tps: 90,
    });
    await seedTurn(db, {
      session: "aaaaaaaaaaaa",
      model: "llama3.1:8b",
      provider: "ollama",
      t: day2 + 60,
      input: 300,
      output: 30,
      cost: null,
      tools: 4,
    });

    const report = await insights(app, "days=7");
    strictEqual(report.mode, "trailing");
    strictEqual(report.total_cost, 0.015, "only priced turns are summed");
    strictEqual(report.unpriced_turns, 2);
    strictEqual(report.total_turns, 4);
    strictEqual(report.total_tool_calls, 7);
    strictEqual(report.total_cached_tokens, 300);
    const [gpt, llama] = report.models;
    deepStrictEqual(gpt, {
      model: "gpt-4o",
      provider: "openai",
      turns: 2,
      input_tokens: 2000,
      output_tokens: 1000,
      cached_tokens: 300,
      cost: 0.015,
      unpriced: false,
      unpriced_turns: 0,
      estimated_turns: 0,
      avg_ttft_ms: 300,
      avg_tokens_per_s: 40,
      tool_calls: 3,
      // The original's names and shares (tests/compat_api_test.ts covers them).
      cache_read_tokens: 300,
      total_tokens: 3000,
      token_share: 73.2,
      turn_share: 50,
      cost_share: 100,
    });
    deepStrictEqual(llama, {
      model: "llama3.1:8b",
      provider: "ollama",
      turns: 2,
      input_tokens: 1000,
      output_tokens: 100,
      cached_tokens: 0,
      cost: null,
      unpriced: true,
      unpriced_turns: 2,
      estimated_turns: 0,
      avg_ttft_ms: 50,
      avg_tokens_per_s: 90,
      tool_calls: 4,
      cache_read_tokens: 0,
      total_tokens: 1100,
      token_share: 26.8,
      turn_share: 50,
      cost_share: 0,
    });
    const byDate = Object.fromEntries(report.daily_tokens.map((d) => [d.date, d]));
    strictEqual(byDate["2026-03-08"].cost, 0.015);
    strictEqual(byDate["2026-03-09"].cost, null, "a day of unpriced turns has no cost, not $0");
    strictEqual(byDate["2026-03-09"].turns, 2);
    strictEqual(byDate["2026-03-05"].cost, 0, "a day without turns cost nothing");
    strictEqual(byDate["2026-03-05"].turns, 0);
    strictEqual(sumDaily(report).cost, report.total_cost);

    const onlyUnpriced = await insights(app, "start=2026-03-09&end=2026-03-09");
    strictEqual(onlyUnpriced.total_cost, null, "nothing priced: the total is unknown, not $0");
    strictEqual(onlyUnpriced.unpriced_turns, 2);
    strictEqual(onlyUnpriced.models.length, 1);
  });
});

Deno.test("GET /api/insights counts activity by local weekday and hour, DST days included", async () => {
  const now = at("2026-11-05T12:00:00-05:00");
  await withApp(async (app) => {
    const db = app.ctx.db;
    await seedSession(db, "aaaaaaaaaaaa", at("2026-10-01T00:00:00-04:00"));
    await seedSession(db, "bbbbbbbbbbbb", at("2026-10-01T00:00:00-04:00"));
    await seedSession(db, "cccccccccccc", at("2026-10-01T00:00:00-04:00"));
    // 2026-11-01 (Sunday) has 01:00–02:00 twice: once in EDT, once in EST.
    await seedMessage(db, "aaaaaaaaaaaa", "user", at("2026-11-01T01:30:00-04:00"));
    await seedMessage(db, "aaaaaaaaaaaa", "assistant", at("2026-11-01T01:30:00-05:00"));
    await seedMessage(db, "aaaaaaaaaaaa", "tool", at("2026-11-01T01:31:00-05:00"));
    await seedMessage(db, "bbbbbbbbbbbb", "user", at("2026-11-01T23:45:00-05:00"));
    // Monday 2026-11-02, 00:15 local.
    await seedMessage(db, "bbbbbbbbbbbb", "user", at("2026-11-02T00:15:00-05:00"));
    // Outside the window (Saturday): not counted, and its session not either.
    await seedMessage(db, "cccccccccccc", "user", at("2026-10-31T23:59:59-04:00"));

    const report = await insights(app, "start=2026-11-01&end=2026-11-02");
    strictEqual(report.end - report.start, 2 * 86400 + 3600, "the fall-back day lasts 25 hours");
    strictEqual(report.total_messages, 4, "user and assistant messages; tool results excluded");
    strictEqual(report.total_sessions, 2);
    const byDay = Array(7).fill(0);
    byDay[6] = 3; // Sunday
    byDay[0] = 1; // Monday
    deepStrictEqual(report.activity_by_day, byDay);
    const byHour = Array(24).fill(0);
    byHour[1] = 2;
    byHour[23] = 1;
    byHour[0] = 1;
    deepStrictEqual(report.activity_by_hour, byHour);
    strictEqual(report.activity_by_day.reduce((a, b) => a + b, 0), report.total_messages);
    deepStrictEqual(report.daily_tokens.map((d) => d.date), ["2026-11-01", "2026-11-02"]);
  }, now);
});

Deno.test("GET /api/insights falls back to the trailing window for 2026-02-31", async () => {
  await withApp(async (app) => {
    const report = await insights(app, "days=7&start=2026-02-31&end=2026-03-09");
    strictEqual(report.mode, "trailing");
    strictEqual(report.end, NOW);
    strictEqual(report.start, NOW - 7 * 86400);
    ok(report.fallback_reason?.includes("2026-02-31"));
    strictEqual(report.daily_tokens.length, 8);
    strictEqual(report.daily_tokens[0].date, "2026-03-03");
    strictEqual(report.activity_by_day.length, 7);
    strictEqual(report.activity_by_hour.length, 24);
  });
});

Deno.test("GET /api/insights with start == now is an empty custom window", async () => {
  await withApp(async (app) => {
    await seedSession(app.ctx.db, "aaaaaaaaaaaa", NOW - 10);
    await seedTurn(app.ctx.db, {
      session: "aaaaaaaaaaaa",
      model: "gpt-4o",
      t: NOW - 10,
      input: 1,
      output: 1,
      cost: 1,
    });
    const report = await insights(app, `start=${NOW}`);
    strictEqual(report.mode, "custom");
    strictEqual(report.start, NOW);
    strictEqual(report.end, NOW);
    deepStrictEqual(report.daily_tokens, []);
    strictEqual(report.total_cost, 0);
    strictEqual(report.total_sessions, 0);
    deepStrictEqual(report.models, []);
  });
});
