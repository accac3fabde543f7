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
import { Badge, Section, StatusLine } from "./parts.tsx";

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

const LABELS: Record<KeyedProvider, { label: string; env: string }> = {
  openai: { label: "OpenAI", env: "OPENAI_API_KEY" },
  anthropic: { label: "Anthropic", env: "ANTHROPIC_API_KEY" },
  openrouter: { label: "OpenRouter", env: "OPENROUTER_API_KEY" },
};

export function loadProviders(
  app: Pick<AppContext, "config" | "db" | "clock">,
  settings: PublicSettings,
): ProvidersData {
  const resolved = resolveProviders(app.config);
  const list = listProviders(app.config).providers;
  const reasoning = reasoningStatus(app.config);
  return {
    list,
    usage: Object.fromEntries(list.map((p) => [p.id, usageByDay(app.db, p.id, 14, app.clock())])),
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
        title="In use"
        actions={
          <a class="btn cc-btn" href="/onboarding" data-cc-link>
            Set up a provider…
          </a>
        }
      >
        {data.provider
          ? (
            <dl class="cc-facts">
              <div>
                <dt>Provider</dt>
                <dd>
                  <Badge tone="success">{data.providerLabel ?? data.provider}</Badge>
                </dd>
              </div>
              <div>
                <dt>Default model</dt>
                <dd class="mono">{data.defaultModel ?? "—"}</dd>
              </div>
              {data.baseUrl
                ? (
                  <div>
                    <dt>Endpoint</dt>
                    <dd class="mono cc-break">{data.baseUrl}</dd>
                  </div>
                )
                : null}
            </dl>
          )
          : (
            <p class="cc-callout" data-tone="warning">
              No provider is usable{data.issue ? `: ${data.issue}` : "."}
            </p>
          )}
      </Section>

      <ModelRoles data={data} />

      <Section
        hook="providers-list"
        title="Providers"
        description="Endpoints the agent can use, stored in config.yaml. Open one to edit it, test it or see its usage."
      >
        <ul class="cc-rows pv-list">
          {data.list.map((p) => <ProviderItem key={p.id} p={p} usage={data.usage[p.id] ?? []} />)}
        </ul>
        <StatusLine hook="pv-list" />
        <AddProvider />
      </Section>

      <Section
        hook="keys"
        title="API keys"
        description="A key stored here is used instead of the one in the environment. It is never shown again in full."
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
                  {stored ? <code class="mono">{stored}</code> : data.fromEnv[id]
                    ? (
                      <>
                        From <code class="mono">{env}</code>
                      </>
                    )
                    : "Not set"}
                </span>
                <input
                  id={`cc-key-${id}`}
                  name={id}
                  type="password"
                  class="cc-input mono"
                  placeholder={stored ? "Paste a new key to replace it" : "Paste an API key"}
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
                      aria-label={`Remove the stored ${label} key`}
                    >
                      Remove
                    </button>
                  )
                  : <span />}
              </div>
            );
          })}
          <div class="cc-form-foot">
            <StatusLine hook="keys" />
            <button type="submit" class="btn cc-btn cc-btn-primary">Save keys</button>
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
      title="Side work and reasoning"
      description="A cheaper model for titles, goals, compression and side questions (blank: the default model), and how hard reasoning models think."
    >
      <form class="cc-form" data-pv-form="roles" autocomplete="off">
        <div class="cc-grid">
          <div class="cc-field">
            <label class="cc-label" for="pv-auxiliary">Auxiliary model</label>
            <input
              id="pv-auxiliary"
              name="auxiliary"
              class="cc-input mono"
              list="pv-model-options"
              value={data.auxiliary ?? ""}
              placeholder={data.defaultModel ?? "the default model"}
              spellcheck={false}
            />
            <datalist id="pv-model-options">
              {models.map((m) => <option key={m} value={m} />)}
            </datalist>
          </div>
          <div class="cc-field">
            <label class="cc-label" for="pv-reasoning">Reasoning effort</label>
            <select id="pv-reasoning" name="reasoning" class="cc-input">
              <option value="" selected={!data.reasoning}>Provider default</option>
              {data.efforts.map((e) => (
                <option key={e} value={e} selected={data.reasoning === e}>{e}</option>
              ))}
            </select>
          </div>
        </div>
        <div class="cc-form-foot">
          <StatusLine hook="model-roles" />
          <button type="submit" class="btn cc-btn cc-btn-primary">Save</button>
        </div>
      </form>
    </Section>
  );
}
