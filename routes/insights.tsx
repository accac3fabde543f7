// The Insights view at `/insights`: usage over one window (seed §4.12), server-rendered from
// lib/insights/insights.ts. Presets are plain links (`?days=N`); the custom range is a GET form of two
// date inputs sending raw YYYY-MM-DD, read in the server's timezone. Costs of turns without a
// price are shown as "unpriced", never as $0.
import type { ComponentChildren } from "preact";
import type { Handlers, PageProps } from "../lib/server/file_router.ts";
import {
  computeInsights,
  type InsightsReport,
  type ModelInsight,
} from "../lib/insights/insights.ts";
import {
  isoDate,
  normalizeDate,
  resolveInsightsWindow,
  serverCalendar,
} from "../lib/insights/insights_window.ts";
import { usePageScripts } from "../lib/server/page_scripts.ts";
import { Icon } from "../components/Icon.tsx";
import {
  ActivityBars,
  DailyTokensChart,
  formatCompact,
  formatCount,
  shortDate,
} from "../components/InsightsChart.tsx";

export const PRESETS = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;

interface InsightsData {
  report: InsightsReport;
  /** Today's local date (the inputs' max). */
  today: string;
  /** What the custom-range inputs show: the served range, or the last 30 days. */
  rangeStart: string;
  rangeEnd: string;
}

/** A missing or blank parameter is an omitted bound (an empty date input submits ""). */
const param = (q: URLSearchParams, name: string) => {
  const v = q.get(name);
  return v === null || v.trim() === "" ? null : v.trim();
};

export const handler: Handlers<InsightsData> = {
  GET(_req, ctx) {
    const { app, url } = ctx;
    const q = url.searchParams;
    const cal = serverCalendar(app.config.env.TZ);
    const now = app.clock();
    const window = resolveInsightsWindow(
      { days: param(q, "days"), start: param(q, "start"), end: param(q, "end") },
      now,
      cal,
    );
    const report = computeInsights(app.db, window, cal);
    const t = cal.parts(now);
    const today = isoDate(t.year, t.month, t.day);
    let rangeStart = isoDate(...normalizeDate(t.year, t.month, t.day - 29));
    let rangeEnd = today;
    if (report.mode === "custom" && report.daily_tokens.length > 0) {
      rangeStart = report.daily_tokens[0].date;
      rangeEnd = report.daily_tokens[report.daily_tokens.length - 1].date;
    }
    ctx.state.title = "Insights";
    return ctx.render({ report, today, rangeStart, rangeEnd });
  },
};

/** null → "unpriced"; tiny costs keep two significant digits instead of rounding to $0.00. */
export function formatCost(cost: number | null): string {
  if (cost === null) return "unpriced";
  if (cost === 0) return "$0.00";
  if (cost < 0.0001) return "<$0.0001";
  if (cost < 0.01) return `$${Number(cost.toPrecision(2))}`;
  return `$${cost.toFixed(2)}`;
}

const formatMs = (ms: number | null) =>
  ms === null ? "—" : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
const formatRate = (r: number | null) => (r === null ? "—" : r.toFixed(1));

function periodTitle(r: InsightsReport): string {
  if (r.mode === "trailing") return r.days === 365 ? "Last 12 months" : `Last ${r.days} days`;
  const days = r.daily_tokens;
  if (days.length === 0) return "Empty range";
  const first = days[0].date;
  const last = days[days.length - 1].date;
  if (first === last) return shortDate(first, true);
  const sameYear = first.slice(0, 4) === last.slice(0, 4);
  return `${shortDate(first, !sameYear)} – ${shortDate(last, true)}`;
}

function CostCell({ cost, unpricedTurns }: { cost: number | null; unpricedTurns: number }) {
  if (cost === null) return <span class="ins-unpriced">unpriced</span>;
  return (
    <>
      {formatCost(cost)}
      {unpricedTurns > 0
        ? (
          <span
            class="ins-unpriced-note"
            title={`${unpricedTurns} turn${unpricedTurns === 1 ? " has" : "s have"} no known price`}
          >
            {" "}+ unpriced
          </span>
        )
        : null}
    </>
  );
}

function Stat(
  { label, value, title, hook }: {
    label: string;
    value: ComponentChildren;
    title?: string;
    hook: string;
  },
) {
  return (
    <div class="ins-stat" data-stat={hook}>
      <dt>{label}</dt>
      <dd title={title}>{value}</dd>
    </div>
  );
}

function ModelRow({ m }: { m: ModelInsight }) {
  return (
    <tr data-model={m.model}>
      <th scope="row">
        <span class="ins-model mono">{m.model}</span>
        {m.provider ? <span class="ins-provider">{m.provider}</span> : null}
      </th>
      <td class="num">{formatCount(m.turns)}</td>
      <td class="num" data-col="input">{formatCount(m.input_tokens)}</td>
      <td class="num" data-col="output">{formatCount(m.output_tokens)}</td>
      <td class="num" data-col="cost">
        <CostCell cost={m.cost} unpricedTurns={m.unpriced_turns} />
      </td>
      <td class="num">{formatMs(m.avg_ttft_ms)}</td>
      <td class="num">{formatRate(m.avg_tokens_per_s)}</td>
      <td class="num">{formatCount(m.tool_calls)}</td>
    </tr>
  );
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00`);

/** The period presets and the custom date range. */
function PeriodControls({ data }: { data: InsightsData }) {
  const r = data.report;
  return (
    <div class="ins-controls">
      <nav class="ins-presets" aria-label="Period">
        {PRESETS.map((p) => (
          <a
            key={p.days}
            class="ins-preset"
            href={`/insights?days=${p.days}`}
            aria-current={r.mode === "trailing" && r.days === p.days ? "page" : undefined}
            data-days={p.days}
          >
            {p.label}
          </a>
        ))}
      </nav>
      <form
        class="ins-range"
        method="get"
        action="/insights"
        aria-label="Custom range"
        data-active={r.mode === "custom" ? "" : undefined}
      >
        <label>
          <span class="visually-hidden">From</span>
          <input type="date" name="start" value={data.rangeStart} max={data.today} required />
        </label>
        <span class="ins-range-sep" aria-hidden="true">–</span>
        <label>
          <span class="visually-hidden">To</span>
          <input type="date" name="end" value={data.rangeEnd} max={data.today} required />
        </label>
        <button type="submit" class="btn ins-range-apply">Apply</button>
      </form>
    </div>
  );
}

/** Per-model turns, tokens, cost and speed. */
function ModelsTable({ models }: { models: ModelInsight[] }) {
  return (
    <section class="ins-card" aria-labelledby="ins-models-h">
      <h2 id="ins-models-h">Models</h2>
      {models.length === 0
        ? <p class="ins-muted">No model answered in this period.</p>
        : (
          <div class="ins-table-wrap">
            <table class="ins-table ins-models">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" class="num">Turns</th>
                  <th scope="col" class="num">Input</th>
                  <th scope="col" class="num">Output</th>
                  <th scope="col" class="num">Cost</th>
                  <th scope="col" class="num" title="Average time to first token">
                    Avg TTFT
                  </th>
                  <th scope="col" class="num" title="Average output tokens per second">
                    Tokens/s
                  </th>
                  <th scope="col" class="num">Tool calls</th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => <ModelRow key={`${m.provider}/${m.model}`} m={m} />)}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}

/** Messages by weekday and by hour. */
function ActivityCard({ r }: { r: InsightsReport }) {
  return (
    <section class="ins-card ins-activity-grid" aria-labelledby="ins-activity-h">
      <h2 id="ins-activity-h">Activity</h2>
      <div>
        <h3>By weekday</h3>
        <ActivityBars
          id="weekday"
          title="Messages by weekday"
          values={r.activity_by_day}
          names={WEEKDAYS}
          labels={WEEKDAYS.map((d) => d.slice(0, 3))}
        />
      </div>
      <div>
        <h3>By hour</h3>
        <ActivityBars
          id="hour"
          title="Messages by hour of day"
          values={r.activity_by_hour}
          names={HOURS}
          labels={HOURS.map((h, i) => (i % 6 === 0 ? h.slice(0, 2) : ""))}
        />
      </div>
    </section>
  );
}

export default function Insights({ data }: PageProps<InsightsData>) {
  usePageScripts();
  const { report: r } = data;
  const idle = r.total_turns === 0 && r.total_messages === 0;
  return (
    <div class="ins-page">
      <link rel="stylesheet" href="/static/insights.css" />
      <header class="ins-head">
        <a class="btn ins-back" href="/">
          <Icon name="arrowLeft" />
          Console
        </a>
        <div class="ins-title">
          <h1>Insights</h1>
          <p class="ins-period" data-mode={r.mode}>
            {periodTitle(r)}
            <span class="ins-tz">· {r.timezone}</span>
          </p>
        </div>
      </header>

      <main class="ins-main">
        <PeriodControls data={data} />
        {r.fallback_reason
          ? (
            <p class="notice ins-notice" role="status">
              Showing the last {r.days} days instead: {r.fallback_reason}.
            </p>
          )
          : null}

        <dl class="ins-stats">
          <Stat hook="sessions" label="Sessions" value={formatCount(r.total_sessions)} />
          <Stat hook="messages" label="Messages" value={formatCount(r.total_messages)} />
          <Stat
            hook="input"
            label="Input tokens"
            value={formatCompact(r.total_input_tokens)}
            title={`${formatCount(r.total_input_tokens)} input tokens`}
          />
          <Stat
            hook="output"
            label="Output tokens"
            value={formatCompact(r.total_output_tokens)}
            title={`${formatCount(r.total_output_tokens)} output tokens`}
          />
          <Stat
            hook="cost"
            label="Cost"
            value={<CostCell cost={r.total_cost} unpricedTurns={r.unpriced_turns} />}
          />
        </dl>

        {idle
          ? (
            <p class="ins-empty" data-empty>
              No conversations in this period. Usage appears here after the first answer.
            </p>
          )
          : (
            <>
              <section class="ins-card" aria-labelledby="ins-daily-h">
                <h2 id="ins-daily-h">Tokens</h2>
                <DailyTokensChart days={r.daily_tokens} />
              </section>

              <ModelsTable models={r.models} />
              <ActivityCard r={r} />
            </>
          )}
      </main>
    </div>
  );
}
