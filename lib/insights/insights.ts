// Usage analytics for one resolved window (lib/insights/insights_window.ts): totals, per-model rows, a
// daily series and activity by weekday and hour, from the per-turn `usage` table and the
// `messages` table. Invariants: totals and the daily series are sums of the same rows over the
// same [start, end); a turn without a price is counted as unpriced, never as $0; a turn whose
// tokens were estimated (the provider reported none) is counted in `estimated_turns` wherever
// its tokens are summed, and tokens/s averages only rates measured on reported tokens.
import { type Db, sql, type SqlQuery } from "../storage/db.ts";
import {
  type InsightsWindow,
  type LocalCalendar,
  type WindowDay,
  windowDays,
} from "./insights_window.ts";

/** One model's usage in the window. `cost` is null when none of its turns had a price. */
export interface ModelInsight {
  model: string;
  provider: string | null;
  turns: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost: number | null;
  /** True when at least one turn of this model had no price (its cost is then a lower bound). */
  unpriced: boolean;
  unpriced_turns: number;
  /** Turns of this model whose tokens were (partly) estimated: its token sums are approximate. */
  estimated_turns: number;
  avg_ttft_ms: number | null;
  /** Reported output tokens per second of streaming, averaged over the turns that measured it. */
  avg_tokens_per_s: number | null;
  tool_calls: number;
  /** The original's names: cached input tokens and input + output. */
  cache_read_tokens: number;
  total_tokens: number;
  /** This model's part of the window, in percent (one decimal): tokens, turns, cost. */
  token_share: number;
  turn_share: number;
  cost_share: number;
}

/** One local calendar day. `cost` is null when the day had turns and none was priced; a day without turns costs 0. */
export interface DailyTokens {
  date: string;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  turns: number;
  /** Turns of the day whose tokens were (partly) estimated. */
  estimated_turns: number;
}

/** The body of GET /api/insights (API.md), plus the additions documented on each field. */
export interface InsightsReport extends InsightsWindow {
  /** The timezone calendar dates, weekdays and hours are counted in. */
  timezone: string;
  /** Sessions with at least one message or turn in the window. */
  total_sessions: number;
  /** User and assistant messages in the window (tool results and system prompts excluded). */
  total_messages: number;
  total_turns: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_cached_tokens: number;
  /** Sum over priced turns; null only when there were turns and none had a price. */
  total_cost: number | null;
  /** Turns whose model had no known price: `total_cost` leaves them out. */
  unpriced_turns: number;
  /** Turns whose tokens were (partly) estimated: the token totals are then approximate. */
  estimated_turns: number;
  total_tool_calls: number;
  /** The original's fields: cached input tokens, input + output, and the cached share of input (%). */
  cache_read_tokens: number;
  total_tokens: number;
  cache_hit_percent: number;
  models: ModelInsight[];
  daily_tokens: DailyTokens[];
  /** Messages per weekday, index 0 = Monday … 6 = Sunday (server's local time). */
  activity_by_day: number[];
  /** Messages per local hour of day, index 0 … 23. */
  activity_by_hour: number[];
}

/**
 * Rows are grouped by 15-minute slot in SQL: every UTC offset in use is a multiple of 15 min,
 * so a slot never straddles a local hour or midnight and is placed by its first second.
 */
const SLOT = 900;

/**
 * The 15-minute slot of an epoch-seconds column. Timestamps are positive, so SQLite's CAST (which
 * truncates) is the floor; PostgreSQL's CAST rounds, hence its floor() (which SQLite lacks).
 */
function slotSql(db: Db, column: "created_at" | "timestamp"): SqlQuery {
  const col = sql.raw(column); // one of two fixed column names, never input
  return db.backend === "postgres"
    ? sql`CAST(floor(${col} / ${sql.lit(SLOT)}) AS BIGINT)`
    : sql`CAST(${col} / ${sql.lit(SLOT)} AS INTEGER)`;
}

interface UsageSlot {
  model: string | null;
  model_provider: string | null;
  slot: number;
  turns: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  priced_cost: number | null;
  priced_turns: number;
  estimated_turns: number;
  ttft_sum: number | null;
  ttft_n: number;
  tps_sum: number | null;
  tps_n: number;
  tool_calls: number;
}

/** Find the day containing `t` (binary search over the ordered, contiguous days). */
function dayIndex(days: WindowDay[], t: number): number {
  let lo = 0, hi = days.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (days[mid].midnight <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Local hour of `t` within `day`: arithmetic on ordinary days, the calendar on DST days. */
function localHour(day: WindowDay, t: number, cal: LocalCalendar): number {
  if (day.length === 86_400) return Math.min(23, Math.floor((t - day.midnight) / 3600));
  return cal.parts(t).hour;
}

const round = (n: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};
/** Costs are summed in floating point; 10 decimals removes the noise without hiding cents. */
const money = (n: number) => round(n, 10);

/**
 * Aggregate usage and activity over `window`. `window` must come from
 * `resolveInsightsWindow` with the same calendar, so its days and the series agree.
 */
export async function computeInsights(
  db: Db,
  window: InsightsWindow,
  cal: LocalCalendar,
): Promise<InsightsReport> {
  const days = windowDays(window, cal);
  const daily: DailyTokens[] = days.map((d) => ({
    date: d.date,
    input_tokens: 0,
    output_tokens: 0,
    cost: null,
    turns: 0,
    estimated_turns: 0,
  }));
  type ModelSums = Omit<
    ModelInsight,
    "cache_read_tokens" | "total_tokens" | "token_share" | "turn_share" | "cost_share"
  >;
  const byModel = new Map<string, ModelSums & { ttft: [number, number]; tps: [number, number] }>();
  const activityByDay = Array(7).fill(0);
  const activityByHour = Array(24).fill(0);

  const { start, end } = window;
  const usageSlot = slotSql(db, "created_at");
  const usage = end > start
    ? await db.all<UsageSlot>(
      sql`SELECT model, model_provider, ${usageSlot} AS slot,
                 COUNT(*) AS turns, SUM(input_tokens) AS input_tokens,
                 SUM(output_tokens) AS output_tokens, SUM(cached_tokens) AS cached_tokens,
                 SUM(cost) AS priced_cost, COUNT(cost) AS priced_turns,
                 COUNT(CASE WHEN estimated <> 0 THEN 1 END) AS estimated_turns,
                 SUM(ttft_ms) AS ttft_sum, COUNT(ttft_ms) AS ttft_n,
                 SUM(tokens_per_s) AS tps_sum, COUNT(tokens_per_s) AS tps_n,
                 SUM(tool_count) AS tool_calls
          FROM usage WHERE created_at >= ${start} AND created_at < ${end}
          GROUP BY model, model_provider, slot`,
    )
    : [];

  for (const row of usage) {
    const i = dayIndex(days, Math.max(row.slot * SLOT, start));
    const day = daily[i];
    day.input_tokens += row.input_tokens;
    day.output_tokens += row.output_tokens;
    day.turns += row.turns;
    day.estimated_turns += row.estimated_turns;
    if (row.priced_turns > 0) day.cost = (day.cost ?? 0) + (row.priced_cost ?? 0);

    const name = row.model ?? "unknown";
    const key = `${row.model_provider ?? ""}\u0000${name}`;
    let m = byModel.get(key);
    if (!m) {
      m = {
        model: name,
        provider: row.model_provider,
        turns: 0,
        input_tokens: 0,
        output_tokens: 0,
        cached_tokens: 0,
        cost: null,
        unpriced: false,
        unpriced_turns: 0,
        estimated_turns: 0,
        avg_ttft_ms: null,
        avg_tokens_per_s: null,
        tool_calls: 0,
        ttft: [0, 0],
        tps: [0, 0],
      };
      byModel.set(key, m);
    }
    m.turns += row.turns;
    m.input_tokens += row.input_tokens;
    m.output_tokens += row.output_tokens;
    m.cached_tokens += row.cached_tokens;
    m.tool_calls += row.tool_calls;
    m.unpriced_turns += row.turns - row.priced_turns;
    m.estimated_turns += row.estimated_turns;
    if (row.priced_turns > 0) m.cost = (m.cost ?? 0) + (row.priced_cost ?? 0);
    m.ttft[0] += row.ttft_sum ?? 0;
    m.ttft[1] += row.ttft_n;
    m.tps[0] += row.tps_sum ?? 0;
    m.tps[1] += row.tps_n;
  }
  const pricedCost = daily.reduce((s, d) => s + (d.cost ?? 0), 0);
  for (const d of daily) d.cost = d.turns === 0 ? 0 : d.cost === null ? null : money(d.cost);

  const messageSlots = end > start
    ? await db.all<{ slot: number; n: number }>(
      sql`SELECT ${slotSql(db, "timestamp")} AS slot, COUNT(*) AS n FROM messages
          WHERE timestamp >= ${start} AND timestamp < ${end} AND role IN ('user', 'assistant')
          GROUP BY slot`,
    )
    : [];
  let totalMessages = 0;
  for (const { slot, n } of messageSlots) {
    const t = Math.max(slot * SLOT, start);
    const day = days[dayIndex(days, t)];
    activityByDay[day.weekday] += n;
    activityByHour[localHour(day, t, cal)] += n;
    totalMessages += n;
  }

  const { sessions } = end > start
    ? (await db.get<{ sessions: number }>(
      sql`SELECT COUNT(*) AS sessions FROM (
            SELECT session_id FROM messages WHERE timestamp >= ${start} AND timestamp < ${end}
            UNION
            SELECT session_id FROM usage WHERE created_at >= ${start} AND created_at < ${end}
          ) AS active`,
    ))!
    : { sessions: 0 };

  const models: ModelInsight[] = [...byModel.values()].map(({ ttft, tps, ...m }) => ({
    ...m,
    cost: m.cost === null ? null : money(m.cost),
    unpriced: m.unpriced_turns > 0,
    avg_ttft_ms: ttft[1] > 0 ? round(ttft[0] / ttft[1], 1) : null,
    avg_tokens_per_s: tps[1] > 0 ? round(tps[0] / tps[1], 2) : null,
    cache_read_tokens: m.cached_tokens,
    total_tokens: m.input_tokens + m.output_tokens,
    token_share: 0,
    turn_share: 0,
    cost_share: 0,
  })).sort((a, b) =>
    (b.input_tokens + b.output_tokens) - (a.input_tokens + a.output_tokens) ||
    b.turns - a.turns || a.model.localeCompare(b.model)
  );

  const totalTurns = daily.reduce((s, d) => s + d.turns, 0);
  const unpricedTurns = models.reduce((s, m) => s + m.unpriced_turns, 0);
  const totalInput = daily.reduce((s, d) => s + d.input_tokens, 0);
  const totalTokens = totalInput + daily.reduce((s, d) => s + d.output_tokens, 0);
  const totalCached = models.reduce((s, m) => s + m.cached_tokens, 0);
  const share = (part: number, whole: number) => whole > 0 ? round((part / whole) * 100, 1) : 0;
  for (const m of models) {
    m.token_share = share(m.total_tokens, totalTokens);
    m.turn_share = share(m.turns, totalTurns);
    m.cost_share = share(m.cost ?? 0, pricedCost);
  }
  return {
    ...window,
    timezone: cal.timeZone,
    total_sessions: sessions,
    total_messages: totalMessages,
    total_turns: totalTurns,
    total_input_tokens: daily.reduce((s, d) => s + d.input_tokens, 0),
    total_output_tokens: daily.reduce((s, d) => s + d.output_tokens, 0),
    total_cached_tokens: models.reduce((s, m) => s + m.cached_tokens, 0),
    total_cost: totalTurns > 0 && unpricedTurns === totalTurns ? null : money(pricedCost),
    unpriced_turns: unpricedTurns,
    estimated_turns: daily.reduce((s, d) => s + d.estimated_turns, 0),
    total_tool_calls: models.reduce((s, m) => s + m.tool_calls, 0),
    cache_read_tokens: totalCached,
    total_tokens: totalTokens,
    cache_hit_percent: share(totalCached, totalInput),
    models,
    daily_tokens: daily,
    activity_by_day: activityByDay,
    activity_by_hour: activityByHour,
  };
}
