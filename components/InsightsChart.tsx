// The Insights charts, server-rendered as SVG: daily tokens as stacked input/output bars, and
// message activity by weekday and by hour. The SVG draws only the bars (stretched to the
// column's width); axis labels are HTML beside it so text stays crisp at any size. Every bar
// carries a <title> (hover and screen readers), and the figures are also offered as a table.
import type { DailyTokens } from "../lib/insights/insights.ts";
import { formatTokens } from "../lib/browser/composer_state.ts";
import { formatDate, formatNumber, t } from "../lib/i18n/t.ts";

/** 1234 → "1,234" (in the page's locale); the full figure, for titles and tables. */
export const formatCount = (n: number) => formatNumber(n);
/** Stat cells: exact below 10,000, then "12k" (the composer's /usage form). */
export const formatCompact = (n: number) =>
  n < 10_000 ? formatNumber(n) : formatTokens(Math.round(n));

/** The smallest "nice" value (1, 2, 2.5 or 5 × 10^k) at or above `n`; at least 1. */
export function niceCeiling(n: number): number {
  if (n <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}

/** One bar of the tokens chart: a day, or a week when the window is long. */
export interface TokenBucket {
  /** First calendar date of the bucket (YYYY-MM-DD). */
  date: string;
  /** Last calendar date (equal to `date` for a day). */
  until: string;
  input_tokens: number;
  output_tokens: number;
  turns: number;
}

/** Beyond this many days the chart shows weeks: a bar stays at least a couple of pixels wide. */
export const MAX_DAILY_BARS = 400;

/** Days as they are, or grouped in consecutive runs of seven past MAX_DAILY_BARS. */
export function tokenBuckets(
  days: DailyTokens[],
): { unit: "day" | "week"; buckets: TokenBucket[] } {
  const one = (d: DailyTokens): TokenBucket => ({
    date: d.date,
    until: d.date,
    input_tokens: d.input_tokens,
    output_tokens: d.output_tokens,
    turns: d.turns,
  });
  if (days.length <= MAX_DAILY_BARS) return { unit: "day", buckets: days.map(one) };
  const buckets: TokenBucket[] = [];
  for (let i = 0; i < days.length; i += 7) {
    const week = days.slice(i, i + 7);
    buckets.push({
      date: week[0].date,
      until: week[week.length - 1].date,
      input_tokens: week.reduce((s, d) => s + d.input_tokens, 0),
      output_tokens: week.reduce((s, d) => s + d.output_tokens, 0),
      turns: week.reduce((s, d) => s + d.turns, 0),
    });
  }
  return { unit: "week", buckets };
}

/**
 * "2026-03-04" → "Mar 4" (or "Mar 4, 2026" with the year) in the page's locale; the calendar
 * date as written, read in UTC so no timezone moves it.
 */
export function shortDate(iso: string, withYear = false): string {
  const [y, m, d] = iso.split("-").map(Number);
  return formatDate(Date.UTC(y, m - 1, d), {
    month: "short",
    day: "numeric",
    year: withYear ? "numeric" : undefined,
    timeZone: "UTC",
  });
}

/** Width of one bar slot in SVG units; the SVG is stretched to the container. */
const SLOT = 10;

function barWidth(n: number): number {
  if (n <= 14) return SLOT * 0.42;
  if (n <= 60) return SLOT * 0.64;
  return SLOT * 0.8;
}

export function DailyTokensChart({ days }: { days: DailyTokens[] }) {
  const { unit, buckets } = tokenBuckets(days);
  const max = niceCeiling(Math.max(0, ...buckets.map((b) => b.input_tokens + b.output_tokens)));
  const n = buckets.length;
  const w = barWidth(n);
  const H = 100;
  const multiYear = n > 0 && buckets[0].date.slice(0, 4) !== buckets[n - 1].until.slice(0, 4);
  const label = (b: TokenBucket) =>
    unit === "day"
      ? shortDate(b.date, true)
      : t("insights.weekOf", { date: shortDate(b.date, true) });
  const active = buckets.filter((b) => b.input_tokens + b.output_tokens > 0);
  const ticks = n === 0 ? [] : n === 1 ? [0] : [0, Math.floor((n - 1) / 2), n - 1];

  return (
    <figure class="ins-chart" data-chart="daily-tokens" data-unit={unit}>
      <div class="ins-chart-plot">
        <div class="ins-y-axis" aria-hidden="true">
          {/* One form on the axis ("10k" above "5.0k"), never mixed with exact figures. */}
          <span style="top:0">{formatTokens(Math.round(max))}</span>
          <span style="top:50%">{formatTokens(Math.round(max / 2))}</span>
          <span style="top:100%">0</span>
        </div>
        <svg
          class="ins-bars"
          viewBox={`0 0 ${Math.max(n, 1) * SLOT} ${H}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={t(unit === "day" ? "insights.chartLabelDay" : "insights.chartLabelWeek", {
            active: active.length,
            count: n,
            peak: Math.max(0, ...buckets.map((b) => b.input_tokens + b.output_tokens)),
          })}
        >
          {[0.5, 1].map((f) => (
            <line
              key={f}
              class="ins-grid"
              x1="0"
              x2={Math.max(n, 1) * SLOT}
              y1={H - H * f}
              y2={H - H * f}
              vector-effect="non-scaling-stroke"
            />
          ))}
          {buckets.map((b, i) => {
            const x = i * SLOT + (SLOT - w) / 2;
            const hIn = (b.input_tokens / max) * H;
            const hOut = (b.output_tokens / max) * H;
            const total = b.input_tokens + b.output_tokens;
            return (
              <g key={b.date} class="ins-bar" data-date={b.date} data-total={total}>
                <title>
                  {t("insights.barTitle", {
                    label: label(b),
                    input: formatCount(b.input_tokens),
                    output: formatCount(b.output_tokens),
                    turns: b.turns,
                  })}
                </title>
                <rect class="ins-hit" x={i * SLOT} y="0" width={SLOT} height={H} />
                {hIn > 0
                  ? <rect class="ins-bar-input" x={x} y={H - hIn} width={w} height={hIn} />
                  : null}
                {hOut > 0
                  ? <rect class="ins-bar-output" x={x} y={H - hIn - hOut} width={w} height={hOut} />
                  : null}
              </g>
            );
          })}
        </svg>
      </div>
      <div class="ins-x-axis" aria-hidden="true">
        {ticks.map((i) => <span key={i}>{shortDate(buckets[i].date, multiYear)}</span>)}
      </div>
      <figcaption class="ins-legend">
        <span class="ins-swatch ins-swatch-input" aria-hidden="true" />
        {t("insights.colInput")}
        <span class="ins-swatch ins-swatch-output" aria-hidden="true" />
        {t("insights.colOutput")}
        <span class="ins-legend-unit">
          {t(unit === "day" ? "insights.tokensPerDay" : "insights.tokensPerWeek")}
        </span>
      </figcaption>
      {active.length > 0
        ? (
          <details class="ins-table-toggle">
            <summary>{t("insights.showFigures")}</summary>
            <table class="ins-table ins-daily-table">
              <thead>
                <tr>
                  <th scope="col">
                    {t(unit === "day" ? "insights.colDate" : "insights.colWeekOf")}
                  </th>
                  <th scope="col" class="num">{t("insights.colTurns")}</th>
                  <th scope="col" class="num">{t("insights.colInput")}</th>
                  <th scope="col" class="num">{t("insights.colOutput")}</th>
                </tr>
              </thead>
              <tbody>
                {active.map((b) => (
                  <tr key={b.date}>
                    <td>{shortDate(b.date, true)}</td>
                    <td class="num">{formatCount(b.turns)}</td>
                    <td class="num">{formatCount(b.input_tokens)}</td>
                    <td class="num">{formatCount(b.output_tokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        )
        : null}
    </figure>
  );
}

export interface ActivityBarsProps {
  /** Accessible name of the chart, e.g. "Messages by weekday". */
  title: string;
  /** One count per slot. */
  values: number[];
  /** Full name of each slot, for titles ("Monday", "14:00"). */
  names: string[];
  /** Short axis label of each slot; "" leaves the slot unlabelled. */
  labels: string[];
  /** Stable hook: `data-chart`. */
  id: string;
}

/** A small bar chart of message counts (weekday, hour of day). */
export function ActivityBars({ title, values, names, labels, id }: ActivityBarsProps) {
  const max = Math.max(0, ...values);
  const H = 60;
  const n = values.length;
  const w = barWidth(n > 14 ? 61 : n);
  const peak = max > 0 ? names[values.indexOf(max)] : null;
  return (
    <figure class="ins-activity" data-chart={id}>
      <svg
        class="ins-bars ins-bars-small"
        viewBox={`0 0 ${n * SLOT} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={peak
          ? t("insights.activityPeak", { title, peak, count: max })
          : t("insights.activityNone", { title })}
      >
        <line
          class="ins-grid"
          x1="0"
          x2={n * SLOT}
          y1={H}
          y2={H}
          vector-effect="non-scaling-stroke"
        />
        {values.map((v, i) => {
          const h = max > 0 ? Math.max((v / max) * H, v > 0 ? 1.5 : 0) : 0;
          return (
            <g key={i} class="ins-bar" data-value={v}>
              <title>{t("insights.activityBar", { name: names[i], count: v })}</title>
              <rect class="ins-hit" x={i * SLOT} y="0" width={SLOT} height={H} />
              {h > 0
                ? (
                  <rect
                    class="ins-bar-activity"
                    x={i * SLOT + (SLOT - w) / 2}
                    y={H - h}
                    width={w}
                    height={h}
                  />
                )
                : null}
            </g>
          );
        })}
      </svg>
      <div class="ins-slot-labels" style={`--slots:${n}`} aria-hidden="true">
        {labels.map((l, i) => <span key={i}>{l}</span>)}
      </div>
    </figure>
  );
}
