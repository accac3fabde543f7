// Control Center › Providers, the list: one expandable item per provider (its key masked, its
// endpoint, a 14-day usage sparkline and table from our own metering) holding its edit form
// with "Test connection", and the "Add a provider" form. Server-rendered; the page script
// lib/browser/providers_panel.ts sends the forms to /api/providers*.
import type { ProviderRow } from "../../lib/providers/provider_admin.ts";
import type { UsageDay } from "../../lib/providers/usage_history.ts";
import { formatNumber, t } from "../../lib/i18n/t.ts";
import { Badge, ConfirmAction, Field, StatusLine } from "./parts.tsx";

/** An estimated cost in US dollars: four decimals under a dollar, two above. */
const money = (n: number | null) => {
  if (n === null) return "—";
  const digits = n < 1 ? 4 : 2;
  return formatNumber(n, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
};
const headerLines = (h: Record<string, string>) =>
  Object.entries(h).map(([k, v]) => `${k}: ${v}`).join("\n");

/** A tiny line of daily cost (tokens when nothing was priced), scaled to its own maximum. */
export function Sparkline({ days }: { days: UsageDay[] }) {
  const priced = days.some((d) => d.cost);
  const values = days.map((d) => priced ? d.cost ?? 0 : d.input_tokens + d.output_tokens);
  const max = Math.max(...values, 0);
  const w = 112, h = 24;
  const points = values.map((v, i) =>
    `${(i * w / Math.max(1, values.length - 1)).toFixed(1)},${
      (h - 2 - (max ? v / max : 0) * (h - 4)).toFixed(1)
    }`
  ).join(" ");
  const label = t(priced ? "providers.costPerDay" : "providers.tokensPerDay", {
    count: days.length,
  });
  return (
    <svg class="pv-spark" viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img">
      <title>{label}</title>
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" />
    </svg>
  );
}

function UsageTable({ days }: { days: UsageDay[] }) {
  const recent = days.slice(-7).reverse();
  return (
    <table class="pv-usage" data-pv-usage>
      <caption>{t("providers.usageCaption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("providers.day")}</th>
          <th scope="col">{t("providers.turns")}</th>
          <th scope="col">{t("providers.tokensInOut")}</th>
          <th scope="col">{t("providers.cost")}</th>
        </tr>
      </thead>
      <tbody>
        {recent.map((d) => (
          <tr key={d.date}>
            <td class="mono">{d.date}</td>
            <td>{formatNumber(d.turns)}</td>
            <td>{formatNumber(d.input_tokens)} / {formatNumber(d.output_tokens)}</td>
            <td>{money(d.cost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The fields shared by the edit and add forms (ids suffixed by `key` to stay unique). */
function EndpointFields({ p, suffix: k }: { p: ProviderRow | null; suffix: string }) {
  const id = (f: string) => `pv-${f}-${k}`;
  return (
    <div class="cc-grid">
      <Field
        id={id("base_url")}
        label={t("providers.baseUrl")}
        hint={p?.default_base_url
          ? t("providers.defaultBaseUrl", { url: p.default_base_url })
          : undefined}
      >
        <input
          id={id("base_url")}
          name="base_url"
          class="cc-input mono"
          value={p?.base_url ?? ""}
          placeholder="http://127.0.0.1:8080/v1" // i18n-ignore: an example address
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field
        id={id("api_key")}
        label={t("providers.apiKey")}
        hint={p?.api_key
          ? t("providers.apiKeyMasked")
          : p?.key_env
          ? t("providers.apiKeyOrEnv", { env: p.key_env })
          : undefined}
      >
        <input
          id={id("api_key")}
          name="api_key"
          type={(p ? "text" : "password") as "text"}
          class="cc-input mono"
          value={p?.api_key ?? ""}
          placeholder={t("providers.pasteKey")}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <Field
        id={id("headers")}
        label={t("providers.extraHeaders")}
        hint={t("providers.extraHeadersHint")}
      >
        <textarea
          id={id("headers")}
          name="headers"
          class="cc-input mono"
          rows={2}
          spellcheck={false}
        >
          {headerLines(p?.headers ?? {})}
        </textarea>
      </Field>
      <Field
        id={id("models")}
        label={t("providers.models")}
        hint={t("providers.modelsHint")}
      >
        <textarea id={id("models")} name="models" class="cc-input mono" rows={2} spellcheck={false}>
          {(p?.config_models ?? []).join("\n")}
        </textarea>
      </Field>
    </div>
  );
}

/** Where "Test connection" reports: the model list or the error. */
function TestResult() {
  return <div class="pv-test" data-pv-test role="status" aria-live="polite" hidden />;
}

export function ProviderItem({ p, usage }: { p: ProviderRow; usage: UsageDay[] }) {
  const key = p.id.replace(/[^A-Za-z0-9_-]/g, "_");
  const total = usage.reduce((s, d) => s + (d.cost ?? 0), 0);
  const tokens = usage.reduce((s, d) => s + d.input_tokens + d.output_tokens, 0);
  return (
    <li class="cc-row pv-item" data-pv-provider={p.id} data-configured={String(p.configured)}>
      <details class="pv-details">
        <summary class="pv-summary">
          <span class="pv-summary-main">
            <span class="cc-row-title">
              <span class="cc-row-name">{p.display_name}</span>
              {p.kind === "custom"
                ? <span class="cc-chip">{t("providers.customChip")}</span>
                : null}
              {p.active ? <Badge tone="success">{t("providers.inUse")}</Badge> : null}
              {p.has_key
                ? (
                  <span class="cc-chip" data-pv-key>
                    {p.api_key ?? t("providers.keyFrom", { env: p.key_env ?? "env" })}
                  </span>
                )
                : p.needs_key
                ? <Badge tone="neutral">{t("providers.noKey")}</Badge>
                : null}
            </span>
            <span class="cc-row-meta mono">{p.base_url ?? t("providers.defaultEndpoint")}</span>
          </span>
          {tokens > 0
            ? (
              <span class="pv-summary-usage" title={t("providers.last14Days")}>
                <Sparkline days={usage} />
                <span class="mono">
                  {total
                    ? money(total)
                    : t("providers.tokensShort", { tokens: formatNumber(tokens) })}
                </span>
              </span>
            )
            : null}
        </summary>
        <form
          class="cc-form cc-subform"
          data-pv-form="save"
          data-provider={p.id}
          autocomplete="off"
        >
          <EndpointFields p={p} suffix={key} />
          <TestResult />
          {tokens > 0 ? <UsageTable days={usage} /> : null}
          <div class="cc-form-foot">
            {p.configured && !p.active
              ? (
                <ConfirmAction
                  label={t("control.deleteAsk")}
                  question={t("providers.deleteQuestion", { name: p.display_name })}
                  confirm={t("common.delete")}
                  action="pv-delete"
                  data={{ name: p.id }}
                />
              )
              : null}
            <StatusLine hook={`pv-${key}`} />
            <button type="button" class="btn cc-btn" data-pv-action="test">
              {t("providers.testConnection")}
            </button>
            <button type="submit" class="btn cc-btn cc-btn-primary">{t("common.save")}</button>
          </div>
        </form>
      </details>
    </li>
  );
}

/** The kinds a provider can be added as: a generic endpoint, then products by their names. */
const addable = (): Array<[string, string]> => [
  ["custom", t("providers.openaiCompatible")],
  ["openai", "OpenAI"],
  ["anthropic", "Anthropic"],
  ["openrouter", "OpenRouter"],
  ["ollama", "Ollama"],
  ["lmstudio", "LM Studio"],
];

export function AddProvider() {
  return (
    <details class="pv-add" data-pv-add>
      <summary class="btn cc-btn">{t("providers.addProvider")}</summary>
      <form class="cc-form cc-subform" data-pv-form="add" autocomplete="off">
        <div class="cc-grid">
          <Field id="pv-kind-new" label={t("providers.kind")}>
            <select id="pv-kind-new" name="provider" class="cc-input">
              {addable().map(([v, l]) => <option key={v} value={v}>{l}</option>)}
            </select>
          </Field>
          <Field
            id="pv-name-new"
            label={t("common.name")}
            hint={t("providers.nameHint")}
          >
            <input
              id="pv-name-new"
              name="name"
              class="cc-input mono"
              placeholder="my-server" // i18n-ignore: an example identifier
              autocomplete="off"
              spellcheck={false}
            />
          </Field>
        </div>
        <EndpointFields p={null} suffix="new" />
        <TestResult />
        <div class="cc-form-foot">
          <StatusLine hook="pv-new" />
          <button type="button" class="btn cc-btn" data-pv-action="test">
            {t("providers.testConnection")}
          </button>
          <button type="submit" class="btn cc-btn cc-btn-primary">{t("common.add")}</button>
        </div>
      </form>
    </details>
  );
}
