// Control Center › Providers: which provider and model are in use (and why none is), and the
// API keys stored by the console. Stored keys are shown masked only; a key typed here
// replaces the stored one, an empty field leaves it alone, Remove deletes it (the exported
// environment variable, if any, then applies again).
import type { AppContext } from "../../lib/server/app_context.ts";
import { resolveProviders } from "../../lib/providers/provider_config.ts";
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
}

const LABELS: Record<KeyedProvider, { label: string; env: string }> = {
  openai: { label: "OpenAI", env: "OPENAI_API_KEY" },
  anthropic: { label: "Anthropic", env: "ANTHROPIC_API_KEY" },
  openrouter: { label: "OpenRouter", env: "OPENROUTER_API_KEY" },
};

export function loadProviders(
  app: Pick<AppContext, "config">,
  settings: PublicSettings,
): ProvidersData {
  const resolved = resolveProviders(app.config);
  return {
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
