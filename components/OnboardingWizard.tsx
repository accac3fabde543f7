// The first-run wizard (/onboarding): pick a provider — a local Ollama or LM Studio that was
// detected, a hosted API (OpenAI, Anthropic, OpenRouter) or any OpenAI-compatible URL —
// test it, then choose a model and a workspace (and optionally a password) and finish.
// Server-rendered with GET /api/onboarding/status's data; lib/browser/onboarding_wizard.ts steps
// through it and calls /api/onboarding/probe and /complete. "Skip for now" never traps.
import type { ComponentChildren } from "preact";
import type { OnboardingStatus } from "../lib/settings/onboarding.ts";
import { KNOWN_PROVIDERS } from "../lib/providers/provider_config.ts";
import { Badge, NewPasswordInput } from "./control/parts.tsx";

export interface OnboardingWizardProps {
  status: OnboardingStatus;
  /** HERMES_WEBUI_PASSWORD is set: no password field. */
  passwordFromEnv: boolean;
}

type ProviderRow = OnboardingStatus["providers"][number];

const BLURBS: Record<string, string> = {
  ollama: "Models served by Ollama on this machine.",
  lmstudio: "Models loaded in LM Studio's local server.",
  openai: "GPT models with an OpenAI API key.",
  anthropic: "Claude models with an Anthropic API key.",
  openrouter: "Hundreds of models behind one OpenRouter key.",
  custom: "Any OpenAI-compatible server: vLLM, llama.cpp, LiteLLM…",
};

const KEY_ENV: Record<string, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
};

/** What every free-text input here shares: ids, URLs and keys are typed, not written. */
const MONO = { class: "cc-input mono", autocomplete: "off", spellcheck: false } as const;

/**
 * A labelled field of the wizard; `field` is the `data-ob-field` hook the page script uses to
 * show only what the chosen provider needs.
 */
function ObField(
  { field, id, label, hint, children }: {
    field?: string;
    /** The control the label points at. */
    id: string;
    label: string;
    /** The hint paragraph (some carry hooks the page script rewrites). */
    hint: ComponentChildren;
    children: ComponentChildren;
  },
) {
  return (
    <div class="cc-field" data-ob-field={field}>
      <label class="cc-label" for={id}>{label}</label>
      {children}
      {hint}
    </div>
  );
}

function ProviderChoice(
  { p, status, checked }: { p: ProviderRow; status: OnboardingStatus; checked: boolean },
) {
  const local = p.id === "ollama" || p.id === "lmstudio"
    ? status.detected[p.id as "ollama" | "lmstudio"]
    : null;
  return (
    <label class="ob-choice" data-provider={p.id}>
      <input
        type="radio"
        name="provider"
        value={p.id}
        checked={checked}
        data-base-url={local?.base_url ?? p.base_url ?? ""}
        data-needs-key={p.needs_key ? "" : undefined}
        data-has-key={p.has_key ? "" : undefined}
        data-key-env={KEY_ENV[p.id]}
        data-default-model={KNOWN_PROVIDERS[p.id]?.defaultModel}
        data-models={local?.reachable ? JSON.stringify(local.models) : undefined}
      />
      <span class="ob-choice-text">
        <span class="ob-choice-label">{p.label}</span>
        <span class="ob-choice-hint">{BLURBS[p.id] ?? ""}</span>
      </span>
      <span class="ob-choice-state">
        {local
          ? local.reachable
            ? (
              <Badge tone="success">
                Running · {local.models.length} model{local.models.length === 1 ? "" : "s"}
              </Badge>
            )
            : <Badge tone="neutral">Not running</Badge>
          : p.has_key
          ? <Badge tone="success">Key found</Badge>
          : null}
      </span>
    </label>
  );
}

/** Step 1: the provider choices, grouped, and the details a chosen provider needs. */
function ProviderStep(
  { status, locals, hosted, preselect }: {
    status: OnboardingWizardProps["status"];
    locals: OnboardingWizardProps["status"]["providers"];
    hosted: OnboardingWizardProps["status"]["providers"];
    preselect: string | null;
  },
) {
  return (
    <section class="ob-step" data-ob-step="provider" aria-labelledby="ob-provider-h">
      <h2 class="ob-step-title" id="ob-provider-h">Connect a model provider</h2>
      <fieldset class="ob-group">
        <legend class="ob-group-label">On this machine</legend>
        {locals.map((p) => (
          <ProviderChoice key={p.id} p={p} status={status} checked={p.id === preselect} />
        ))}
      </fieldset>
      <fieldset class="ob-group">
        <legend class="ob-group-label">Hosted or self-hosted API</legend>
        {hosted.map((p) => <ProviderChoice key={p.id} p={p} status={status} checked={false} />)}
      </fieldset>

      <div class="ob-details" data-ob-details>
        <ObField
          field="base_url"
          id="ob-base-url"
          label="Base URL"
          hint={<p class="cc-hint">The API root that answers /models and /chat/completions.</p>}
        >
          <input
            id="ob-base-url"
            name="base_url"
            type="url"
            placeholder="http://127.0.0.1:8000/v1"
            {...MONO}
          />
        </ObField>
        <ObField
          field="api_key"
          id="ob-api-key"
          label="API key"
          hint={
            <p class="cc-hint" data-ob-key-hint>
              Stored in {status.config_path}, readable only by you.
            </p>
          }
        >
          <input id="ob-api-key" name="api_key" type="password" {...MONO} />
        </ObField>
        <div class="ob-probe">
          <button type="button" class="btn cc-btn" data-ob-action="probe">
            Test connection
          </button>
          <p class="ob-probe-result" role="status" aria-live="polite" data-ob-probe />
        </div>
      </div>
    </section>
  );
}

/** Step 2: the default model, the workspace and an optional password. */
function ModelStep(
  { status, passwordFromEnv }: Pick<OnboardingWizardProps, "status" | "passwordFromEnv">,
) {
  return (
    <section
      class="ob-step"
      data-ob-step="model"
      aria-labelledby="ob-model-h"
      hidden
    >
      <h2 class="ob-step-title" id="ob-model-h">Choose a model and a workspace</h2>
      <ObField
        id="ob-model"
        label="Model"
        hint={
          <p class="cc-hint" data-ob-model-hint>
            New conversations use it; each can pick another.
          </p>
        }
      >
        <select id="ob-model" name="model" class="cc-input mono" data-ob-models />
        <input
          id="ob-model-text"
          name="model_text"
          placeholder="Model id, e.g. gpt-4o-mini"
          {...MONO}
          hidden
        />
      </ObField>
      <ObField
        id="ob-workspace"
        label="Workspace"
        hint={
          <p class="cc-hint">
            The folder the agent reads and writes. It asks before anything risky.
          </p>
        }
      >
        <input id="ob-workspace" name="workspace" value={status.workspace} {...MONO} />
      </ObField>
      {passwordFromEnv ? null : (
        <ObField
          id="ob-password"
          label="Password (optional)"
          hint={
            <p class="cc-hint">
              At least 8 characters. Set one when others can reach this address.
            </p>
          }
        >
          <NewPasswordInput id="ob-password" name="password" />
        </ObField>
      )}
    </section>
  );
}

/** The wizard's buttons: skip (or back to the console), back, continue. */
function WizardFoot({ needed, canContinue }: { needed: boolean; canContinue: boolean }) {
  return (
    <footer class="ob-foot">
      {needed
        ? (
          <button type="button" class="btn cc-btn cc-btn-quiet" data-ob-action="skip">
            Skip for now
          </button>
        )
        : <a class="btn cc-btn cc-btn-quiet" href="/">Back to the console</a>}
      <p class="ob-status" role="status" aria-live="polite" data-ob-status />
      <button type="button" class="btn cc-btn" data-ob-action="back" hidden>Back</button>
      <button
        type="submit"
        class="btn cc-btn cc-btn-primary"
        data-ob-action="next"
        disabled={!canContinue}
      >
        Continue
      </button>
    </footer>
  );
}

export function OnboardingWizard({ status, passwordFromEnv }: OnboardingWizardProps) {
  const locals = status.providers.filter((p) => p.id === "ollama" || p.id === "lmstudio");
  const hosted = status.providers.filter((p) => p.id !== "ollama" && p.id !== "lmstudio");
  // A running local server is the likeliest choice; nothing is preselected otherwise.
  const preselect = status.detected.ollama.reachable
    ? "ollama"
    : status.detected.lmstudio.reachable
    ? "lmstudio"
    : null;
  return (
    <form
      class="ob"
      data-ob
      data-step="provider"
      data-provider={preselect ?? undefined}
      data-needed={status.needed ? "" : undefined}
      novalidate
    >
      <header class="ob-head">
        <span class="brand-mark brand-mark-lg" aria-hidden="true">H</span>
        <div>
          <h1 class="ob-title">Set up Hermes Console</h1>
          <p class="ob-lede">
            Hermes needs a language model to talk to. Use one running on this machine or an API; you
            can change it later in the Control Center.
          </p>
        </div>
      </header>

      <ol class="ob-steps" aria-label="Steps">
        <li data-ob-step-mark="provider" aria-current="step">1. Provider</li>
        <li data-ob-step-mark="model">2. Model and workspace</li>
      </ol>

      {status.config_error
        ? (
          <p class="cc-callout ob-callout" data-tone="error" role="alert">
            {status.config_error}. Fix the file first: setup will not overwrite it.
          </p>
        )
        : null}
      {status.has_provider
        ? (
          <p class="cc-callout ob-callout" data-tone="warning">
            A provider is already set up ({status.provider}
            {status.default_model ? `, ${status.default_model}` : ""}). Finishing replaces it.
          </p>
        )
        : null}

      <ProviderStep status={status} locals={locals} hosted={hosted} preselect={preselect} />
      <ModelStep status={status} passwordFromEnv={passwordFromEnv} />
      <WizardFoot needed={status.needed} canContinue={!!preselect} />
    </form>
  );
}
