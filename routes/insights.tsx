// The Insights view at `/insights`: usage over one window (seed §4.12), server-rendered from
// lib/insights/insights.ts. Presets are plain links (`?days=N`); the custom range is a GET form of two
// date inputs sending raw YYYY-MM-DD, read in the server's timezone. Costs of turns without a
// price are shown as "unpriced", never as $0; token figures that include estimates (the provider
// reported no usage) read "~12k" and say so on hover and to screen readers.
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
import { formatDate, formatNumber, t, withLocale } from "../lib/i18n/t.ts";
import { isLocale, SOURCE_LOCALE } from "../lib/i18n/locales.ts";

export const PRESETS = [{ days: 7 }, { days: 30 }, { days: 90 }, { days: 365 }] as const;

/** A preset's label, in the page's language ("7 days", "1 year"). */
const presetLabel = (days: number) =>
  days === 365 ? t("insights.presetYear") : t("insights.presetDays", { days });

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
  async GET(_req, ctx) {
    const { app, url } = ctx;
    const q = url.searchParams;
    const cal = serverCalendar(app.config.env.TZ);
    const now = app.clock();
    const window = resolveInsightsWindow(
      { days: param(q, "days"), start: param(q, "start"), end: param(q, "end") },
      now,
      cal,
    );
    const report = await computeInsights(app.db, window, cal);
    const p = cal.parts(now);
    const today = isoDate(p.year, p.month, p.day);
    let rangeStart = isoDate(...normalizeDate(p.year, p.month, p.day - 29));
    let rangeEnd = today;
    if (report.mode === "custom" && report.daily_tokens.length > 0) {
      rangeStart = report.daily_tokens[0].date;
      rangeEnd = report.daily_tokens[report.daily_tokens.length - 1].date;
    }
    const locale = isLocale(ctx.state.locale) ? ctx.state.locale : SOURCE_LOCALE;
    ctx.state.title = withLocale(locale, () => t("insights.title"));
    return ctx.render({ report, today, rangeStart, rangeEnd });
  },
};

/** US dollars in the page's locale ("$0.05"); `options` adjust the digits. */
const usd = (n: number, options?: Intl.NumberFormatOptions) =>
  formatNumber(n, { style: "currency", currency: "USD", ...options });

/** null → "unpriced"; tiny costs keep two significant digits instead of rounding to $0.00. */
export function formatCost(cost: number | null): string {
  if (cost === null) return t("insights.unpriced");
  if (cost === 0) return usd(0);
  if (cost < 0.0001) {
    return t("insights.costBelow", { amount: usd(0.0001, { minimumFractionDigits: 4 }) });
  }
  if (cost < 0.01) return usd(cost, { maximumSignificantDigits: 2 });
  return usd(cost);
}

const oneDecimal = { minimumFractionDigits: 1, maximumFractionDigits: 1 } as const;
const formatMs = (ms: number | null) =>
  ms === null
    ? "—"
    : ms < 1000
    ? t("insights.ms", { value: formatNumber(Math.round(ms)) })
    : t("insights.seconds", { value: formatNumber(ms / 1000, oneDecimal) });
const formatRate = (r: number | null) => (r === null ? "—" : formatNumber(r, oneDecimal));

function periodTitle(r: InsightsReport): string {
  if (r.mode === "trailing") {
    return r.days === 365 ? t("insights.last12Months") : t("insights.lastDays", { days: r.days });
  }
  const days = r.daily_tokens;
  if (days.length === 0) return t("insights.emptyRange");
  const first = days[0].date;
  const last = days[days.length - 1].date;
  if (first === last) return shortDate(first, true);
  const sameYear = first.slice(0, 4) === last.slice(0, 4);
  return t("insights.dateRange", {
    start: shortDate(first, !sameYear),
    end: shortDate(last, true),
  });
}

function CostCell({ cost, unpricedTurns }: { cost: number | null; unpricedTurns: number }) {
  if (cost === null) return <span class="ins-unpriced">{t("insights.unpriced")}</span>;
  return (
    <>
      {formatCost(cost)}
      {unpricedTurns > 0
        ? (
          <span
            class="ins-unpriced-note"
            title={t("insights.unpricedTitle", { count: unpricedTurns })}
          >
            {" "}
            {t("insights.unpricedNote")}
          </span>
        )
        : null}
    </>
  );
}

/** A token figure: "~" first, and why, when `estimatedTurns` of its turns were estimated. */
function Tokens({ value, estimatedTurns }: { value: string; estimatedTurns: number }) {
  if (estimatedTurns <= 0) return <>{value}</>;
  const why = t("insights.estimatedTitle", { count: estimatedTurns });
  return (
    <span class="ins-estimated" title={why} data-estimated="">
      <span aria-hidden="true">~</span>
      {value}
      <span class="visually-hidden">({why})</span>
    </span>
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
      <td class="num" data-col="input">
        <Tokens value={formatCount(m.input_tokens)} estimatedTurns={m.estimated_turns} />
      </td>
      <td class="num" data-col="output">
        <Tokens value={formatCount(m.output_tokens)} estimatedTurns={m.estimated_turns} />
      </td>
      <td class="num" data-col="cost">
        <CostCell cost={m.cost} unpricedTurns={m.unpriced_turns} />
      </td>
      <td class="num">{formatMs(m.avg_ttft_ms)}</td>
      <td class="num">{formatRate(m.avg_tokens_per_s)}</td>
      <td class="num">{formatCount(m.tool_calls)}</td>
    </tr>
  );
}

/** Monday to Sunday in the page's language, long ("Monday") or short ("Mon"). */
const weekdays = (weekday: "long" | "short") =>
  Array.from(
    { length: 7 },
    // 2024-01-01 was a Monday.
    (_, i) => formatDate(Date.UTC(2024, 0, 1 + i), { weekday, timeZone: "UTC" }),
  );
const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00`);

/** The period presets and the custom date range. */
function PeriodControls({ data }: { data: InsightsData }) {
  const r = data.report;
  return (
    <div class="ins-controls">
      <nav class="ins-presets" aria-label={t("insights.period")}>
        {PRESETS.map((p) => (
          <a
            key={p.days}
            class="ins-preset"
            href={`/insights?days=${p.days}`}
            aria-current={r.mode === "trailing" && r.days === p.days ? "page" : undefined}
            data-days={p.days}
          >
            {presetLabel(p.days)}
          </a>
        ))}
      </nav>
      <form
        class="ins-range"
        method="get"
        action="/insights"
        aria-label={t("insights.customRange")}
        data-active={r.mode === "custom" ? "" : undefined}
      >
        <label>
          <span class="visually-hidden">{t("insights.from")}</span>
          <input type="date" name="start" value={data.rangeStart} max={data.today} required />
        </label>
        <span class="ins-range-sep" aria-hidden="true">–</span>
        <label>
          <span class="visually-hidden">{t("insights.to")}</span>
          <input type="date" name="end" value={data.rangeEnd} max={data.today} required />
        </label>
        <button type="submit" class="btn ins-range-apply">{t("common.apply")}</button>
      </form>
    </div>
  );
}

/** Per-model turns, tokens, cost and speed. */
function ModelsTable({ models }: { models: ModelInsight[] }) {
  return (
    <section class="ins-card" aria-labelledby="ins-models-h">
      <h2 id="ins-models-h">{t("insights.models")}</h2>
      {models.length === 0
        ? <p class="ins-muted">{t("insights.noModels")}</p>
        : (
          <div class="ins-table-wrap">
            <table class="ins-table ins-models">
              <thead>
                <tr>
                  <th scope="col">{t("insights.colModel")}</th>
                  <th scope="col" class="num">{t("insights.colTurns")}</th>
                  <th scope="col" class="num">{t("insights.colInput")}</th>
                  <th scope="col" class="num">{t("insights.colOutput")}</th>
                  <th scope="col" class="num">{t("insights.colCost")}</th>
                  <th scope="col" class="num" title={t("insights.colTtftTitle")}>
                    {t("insights.colTtft")}
                  </th>
                  <th scope="col" class="num" title={t("insights.colRateTitle")}>
                    {t("insights.colRate")}
                  </th>
                  <th scope="col" class="num">{t("insights.colToolCalls")}</th>
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
      <h2 id="ins-activity-h">{t("insights.activity")}</h2>
      <div>
        <h3>{t("insights.byWeekday")}</h3>
        <ActivityBars
          id="weekday"
          title={t("insights.messagesByWeekday")}
          values={r.activity_by_day}
          names={weekdays("long")}
          labels={weekdays("short")}
        />
      </div>
      <div>
        <h3>{t("insights.byHour")}</h3>
        <ActivityBars
          id="hour"
          title={t("insights.messagesByHour")}
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
          {t("insights.back")}
        </a>
        <div class="ins-title">
          <h1>{t("insights.title")}</h1>
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
              {t("insights.fallback", { days: r.days, reason: r.fallback_reason })}
            </p>
          )
          : null}

        <dl class="ins-stats">
          <Stat
            hook="sessions"
            label={t("insights.statSessions")}
            value={formatCount(r.total_sessions)}
          />
          <Stat
            hook="messages"
            label={t("insights.statMessages")}
            value={formatCount(r.total_messages)}
          />
          <Stat
            hook="input"
            label={t("insights.statInput")}
            value={
              <Tokens
                value={formatCompact(r.total_input_tokens)}
                estimatedTurns={r.estimated_turns}
              />
            }
            title={t("insights.inputTokensTitle", { count: r.total_input_tokens })}
          />
          <Stat
            hook="output"
            label={t("insights.statOutput")}
            value={
              <Tokens
                value={formatCompact(r.total_output_tokens)}
                estimatedTurns={r.estimated_turns}
              />
            }
            title={t("insights.outputTokensTitle", { count: r.total_output_tokens })}
          />
          <Stat
            hook="cost"
            label={t("insights.colCost")}
            value={<CostCell cost={r.total_cost} unpricedTurns={r.unpriced_turns} />}
          />
        </dl>

        {idle
          ? (
            <p class="ins-empty" data-empty>
              {t("insights.idle")}
            </p>
          )
          : (
            <>
              <section class="ins-card" aria-labelledby="ins-daily-h">
                <h2 id="ins-daily-h">{t("insights.tokens")}</h2>
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
