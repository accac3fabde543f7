// What one provider has cost this install, from our own metering (the `usage` table written
// after every turn: tokens and estimated cost per model and provider). Invariants: read-only;
// never asks a provider's billing API; days are UTC calendar days and every day of the window
// is listed (zero when unused), so a chart never skips a gap.
import { type Db, sql } from "../storage/db.ts";

/** Tokens and cost of a set of turns. `cost` is null when no turn had a known price. */
export interface UsageTotals {
  turns: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost: number | null;
}

/** One UTC day of a provider's metered usage. */
export interface UsageDay extends UsageTotals {
  /** YYYY-MM-DD (UTC). */
  date: string;
}

const DAY = 86_400;

/** Midnight UTC (seconds) of the day holding `nowSec`. */
function startOfDay(nowSec: number): number {
  return Math.floor(nowSec / DAY) * DAY;
}

function isoDate(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 10);
}

interface Row {
  day: number;
  turns: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost: number | null;
}

/**
 * The last `days` UTC days (today included, oldest first) of turns metered for `provider`
 * (the endpoint id stored in `usage.model_provider`).
 */
export async function usageByDay(
  db: Db,
  provider: string,
  days: number,
  nowSec: number,
): Promise<UsageDay[]> {
  const first = startOfDay(nowSec) - (days - 1) * DAY;
  // SQLite's CAST truncates (the floor of a positive time); PostgreSQL's rounds, and SQLite
  // has no floor(): the day number is written per backend.
  const day = db.backend === "postgres"
    ? sql`CAST(floor(created_at / ${sql.lit(DAY)}) AS BIGINT)`
    : sql`CAST(created_at / ${sql.lit(DAY)} AS INTEGER)`;
  const rows = await db.all<Row>(
    sql`SELECT ${day} AS day, COUNT(*) AS turns,
               COALESCE(SUM(input_tokens), 0) AS input_tokens,
               COALESCE(SUM(output_tokens), 0) AS output_tokens,
               COALESCE(SUM(cached_tokens), 0) AS cached_tokens,
               SUM(cost) AS cost
          FROM usage WHERE model_provider = ${provider} AND created_at >= ${first}
         GROUP BY day`,
  );
  const byDay = new Map(rows.map((r) => [Number(r.day), r]));
  const out: UsageDay[] = [];
  for (let i = 0; i < days; i++) {
    const start = first + i * DAY;
    const r = byDay.get(start / DAY);
    out.push({
      date: isoDate(start),
      turns: Number(r?.turns ?? 0),
      input_tokens: Number(r?.input_tokens ?? 0),
      output_tokens: Number(r?.output_tokens ?? 0),
      cached_tokens: Number(r?.cached_tokens ?? 0),
      cost: r?.cost === null || r?.cost === undefined ? null : Number(r.cost),
    });
  }
  return out;
}

/** Sum of days (cost null only when no day had a known cost). */
export function sumUsage(days: readonly UsageTotals[]): UsageTotals {
  const total: UsageTotals = {
    turns: 0,
    input_tokens: 0,
    output_tokens: 0,
    cached_tokens: 0,
    cost: null,
  };
  for (const d of days) {
    total.turns += d.turns;
    total.input_tokens += d.input_tokens;
    total.output_tokens += d.output_tokens;
    total.cached_tokens += d.cached_tokens;
    if (d.cost !== null) total.cost = (total.cost ?? 0) + d.cost;
  }
  if (total.cost !== null) total.cost = Math.round(total.cost * 1e6) / 1e6;
  return total;
}
