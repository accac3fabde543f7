// Control Center › Logs: the server's own recent log lines (the bounded, redacted ring behind
// GET /api/logs), newest last, filtered by level and text. Server-rendered; the filter form and
// the refresh button re-render this panel (lib/browser/control/logs_panel.ts).
import type { AppContext } from "../../lib/server/app_context.ts";
import type { LogLevel, LogLine } from "../../lib/log.ts";
import { Section, StatusLine } from "./parts.tsx";
import { t } from "../../lib/i18n/t.ts";

const RANK: Record<LogLevel, number> = { INFO: 0, WARN: 1, ERROR: 2 };
/** Lines the panel shows at most (the API pages further). */
const SHOWN = 300;

export interface LogsData {
  lines: LogLine[];
  level: LogLevel;
  q: string;
  total: number;
}

export function loadLogs(
  app: Pick<AppContext, "log">,
  level: string | null,
  q: string | null,
): LogsData {
  const lvl = (level && level.toUpperCase() in RANK ? level.toUpperCase() : "INFO") as LogLevel;
  const text = (q ?? "").trim().slice(0, 200);
  const all = app.log.recent();
  const lines = all.filter((l) =>
    RANK[l.level] >= RANK[lvl] &&
    (!text || `${l.message} ${l.fields ?? ""}`.toLowerCase().includes(text.toLowerCase()))
  );
  return { lines: lines.slice(-SHOWN), level: lvl, q: text, total: lines.length };
}

export function LogsPanel({ data }: { data: LogsData }) {
  return (
    <Section
      hook="logs"
      title={t("extensions.logsTitle")}
      description={t("extensions.logsDescription")}
    >
      <form class="cc-form cc-logs-filter" data-cc-form="logs-filter" role="search">
        <label class="cc-label" for="cc-logs-level">{t("extensions.logsLevel")}</label>
        <select id="cc-logs-level" name="level" class="cc-input">
          {(["INFO", "WARN", "ERROR"] as const).map((l) => (
            <option key={l} value={l} selected={l === data.level}>
              {t("extensions.logsLevelOption", { level: l })}
            </option>
          ))}
        </select>
        <label class="visually-hidden" for="cc-logs-q">{t("extensions.logsFilter")}</label>
        <input
          id="cc-logs-q"
          name="q"
          type="search"
          class="cc-input"
          value={data.q}
          placeholder={t("extensions.logsFilter")}
        />
        <button type="submit" class="btn cc-btn">{t("common.apply")}</button>
        <button type="button" class="btn cc-btn cc-btn-quiet" data-cc-action="logs-refresh">
          {t("common.refresh")}
        </button>
      </form>
      {data.lines.length === 0 ? <p class="cc-empty">{t("extensions.logsEmpty")}</p> : (
        <pre
          class="cc-logs mono"
          data-cc-logs
          tabIndex={0}
          aria-label={t("extensions.logsLines")}
        >
          {data.lines.map((l) => (
            <span key={l.seq} class="cc-log-line" data-level={l.level}>
              {`${l.time.slice(11, 19)} ${l.level.padEnd(5)} ${l.message}${l.fields ? " " + l.fields : ""}\n`}
            </span>
          ))}
        </pre>
      )}
      {data.total > data.lines.length
        ? (
          <p class="cc-hint">
            {t("extensions.logsShowing", { shown: data.lines.length, total: data.total })}
          </p>
        )
        : null}
      <StatusLine hook="logs" />
    </Section>
  );
}
