// Control Center › Providers: which provider and model are in use (and why none is), the
// auxiliary model and reasoning effort, every provider (add, edit, test, delete; usage from our
// own metering), and the API keys stored by the console. Keys are shown masked only; a mask
// sent back keeps the stored key; Remove deletes a stored key (the environment's then applies).
import type { AppContext } from "../../lib/server/app_context.ts";
import { resolveProviders } from "../../lib/providers/provider_config.ts";
import { listProviders, type ProviderRow } from "../../lib/providers/provider_admin.ts";
import { auxiliaryStatus, reasoningStatus } from "../../lib/providers/model_settings.ts";
import { usageByDay, type UsageDay } from "../../lib/providers/usage_history.ts";
import { AddProvider, ProviderItem } from "./ProviderItems.tsx";
import {
  KEYED_PROVIDERS,
  type KeyedProvider,
  type PublicSettings,
} from "../../lib/settings/settings.ts";
import { t } from "../../lib/i18n/t.ts";
import { Badge, Section, StatusLine, withNode } from "./parts.tsx";

export interface ProvidersData {
  provider: string | null;
  providerLabel: string | null;
  defaultModel: string | null;
  baseUrl: string | null;
  issue: string | null;
  keys: Record<KeyedProvider, string>;
  fromEnv: Record<KeyedProvider, boolean>;
  list: ProviderRow[];
  /** Last 14 UTC days of metered usage per listed provider. */
  usage: Record<string, UsageDay[]>;
  auxiliary: string | null;
  reasoning: string | null;
  efforts: string[];
}

/** Each keyed provider's product name (not translated) and its environment variable. */
const LABELS: Record<KeyedProvider, { label: string; env: string }> = {
  openai: { label: "OpenAI", env: "OPENAI_API_KEY" }, // i18n-ignore: product name
  anthropic: { label: "Anthropic", env: "ANTHROPIC_API_KEY" }, // i18n-ignore: product name
  openrouter: { label: "OpenRouter", env: "OPENROUTER_API_KEY" }, // i18n-ignore: product name
};

export async function loadProviders(
  app: Pick<AppContext, "config" | "db" | "clock">,
  settings: PublicSettings,
): Promise<ProvidersData> {
  const resolved = resolveProviders(app.config);
  const list = listProviders(app.config).providers;
  const reasoning = reasoningStatus(app.config);
  const now = app.clock();
  // One provider after another: a panel render holds one pooled connection, not one each.
  const usage: Record<string, UsageDay[]> = {};
  for (const p of list) usage[p.id] = await usageByDay(app.db, p.id, 14, now);
  return {
    list,
    usage,
    auxiliary: auxiliaryStatus(app.config).auxiliary?.model ?? null,
    reasoning: reasoning.reasoning_effort,
    efforts: reasoning.supported_efforts,
    provider: resolved.activeProviderId,
    providerLabel: resolved.active?.label ?? null,
    defaultModel: resolved.defaultModel,
    baseUrl: resolved.active?.baseUrl ?? null,
    issue: resolved.issue ?? null,
    keys: settings.provider_keys,
    fromEnv: settings.provider_keys_from_env,
  };
}

export function ProvidersPanel({ data }: { data: ProvidersData }) {
  return (
    <>
      <Section
        hook="active"
        title={t("providers.inUse")}
        actions={
          <a class="btn cc-btn" href="/onboarding" data-cc-link>
            {t("providers.setUp")}
          </a>
        }
      >
        {data.provider
          ? (
            <dl class="cc-facts">
              <div>
                <dt>{t("providers.provider")}</dt>
                <dd>
                  <Badge tone="success">{data.providerLabel ?? data.provider}</Badge>
                </dd>
              </div>
              <div>
                <dt>{t("providers.defaultModel")}</dt>
                <dd class="mono">{data.defaultModel ?? "—"}</dd>
              </div>
              {data.baseUrl
                ? (
                  <div>
                    <dt>{t("providers.endpoint")}</dt>
                    <dd class="mono cc-break">{data.baseUrl}</dd>
                  </div>
                )
                : null}
            </dl>
          )
          : (
            <p class="cc-callout" data-tone="warning">
              {data.issue
                ? t("providers.noneUsableBecause", { issue: data.issue })
                : t("providers.noneUsable")}
            </p>
          )}
      </Section>

      <ModelRoles data={data} />

      <Section
        hook="providers-list"
        title={t("providers.providers")}
        description={t("providers.providersHint")}
      >
        <ul class="cc-rows pv-list">
          {data.list.map((p) => <ProviderItem key={p.id} p={p} usage={data.usage[p.id] ?? []} />)}
        </ul>
        <StatusLine hook="pv-list" />
        <AddProvider />
      </Section>

      <Section
        hook="keys"
        title={t("providers.apiKeys")}
        description={t("providers.apiKeysHint")}
      >
        <form class="cc-form cc-keys" data-cc-form="keys" autocomplete="off">
          {KEYED_PROVIDERS.map((id) => {
            const stored = data.keys[id];
            const { label, env } = LABELS[id];
            return (
              <div class="cc-key-row" key={id} data-provider={id}>
                <label class="cc-label" for={`cc-key-${id}`}>{label}</label>
                <span
                  class="cc-key-state"
                  data-key-state={stored ? "stored" : data.fromEnv[id] ? "env" : "none"}
                >
                  {stored
                    ? <code class="mono">{stored}</code>
                    : data.fromEnv[id]
                    ? withNode("providers.fromEnv", "env", <code class="mono">{env}</code>)
                    : t("providers.notSet")}
                </span>
                <input
                  id={`cc-key-${id}`}
                  name={id}
                  type="password"
                  class="cc-input mono"
                  placeholder={stored ? t("providers.pasteReplacement") : t("providers.pasteKey")}
                  autocomplete="off"
                  spellcheck={false}
                />
                {stored
                  ? (
                    <button
                      type="button"
                      class="btn cc-btn cc-btn-quiet"
                      data-cc-action="remove-key"
                      data-provider={id}
                      aria-label={t("providers.removeStoredKey", { provider: label })}
                    >
                      {t("common.remove")}
                    </button>
                  )
                  : <span />}
              </div>
            );
          })}
          <div class="cc-form-foot">
            <StatusLine hook="keys" />
            <button type="submit" class="btn cc-btn cc-btn-primary">
              {t("providers.saveKeys")}
            </button>
          </div>
        </form>
      </Section>
    </>
  );
}

/** The auxiliary model (titles, goals, compression, side questions) and the reasoning effort. */
function ModelRoles({ data }: { data: ProvidersData }) {
  const models = [...new Set(data.list.flatMap((p) => p.models.map((m) => m.id)))];
  return (
    <Section
      hook="model-roles"
      title={t("providers.sideWork")}
      description={t("providers.sideWorkHint")}
    >
      <form class="cc-form" data-pv-form="roles" autocomplete="off">
        <div class="cc-grid">
          <div class="cc-field">
            <label class="cc-label" for="pv-auxiliary">{t("providers.auxiliaryModel")}</label>
            <input
              id="pv-auxiliary"
              name="auxiliary"
              class="cc-input mono"
              list="pv-model-options"
              value={data.auxiliary ?? ""}
              placeholder={data.defaultModel ?? t("providers.theDefaultModel")}
              spellcheck={false}
            />
            <datalist id="pv-model-options">
              {models.map((m) => <option key={m} value={m} />)}
            </datalist>
          </div>
          <div class="cc-field">
            <label class="cc-label" for="pv-reasoning">{t("providers.reasoningEffort")}</label>
            <select id="pv-reasoning" name="reasoning" class="cc-input">
              <option value="" selected={!data.reasoning}>{t("providers.providerDefault")}</option>
              {data.efforts.map((e) => (
                <option key={e} value={e} selected={data.reasoning === e}>{e}</option>
              ))}
            </select>
          </div>
        </div>
        <div class="cc-form-foot">
          <StatusLine hook="model-roles" />
          <button type="submit" class="btn cc-btn cc-btn-primary">{t("common.save")}</button>
        </div>
      </form>
    </Section>
  );
}
