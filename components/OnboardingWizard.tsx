// The first-run wizard (/onboarding): pick a provider — a local Ollama or LM Studio that was
// detected, a hosted API (OpenAI, Anthropic, OpenRouter) or any OpenAI-compatible URL —
// test it, then choose a model and a workspace (and optionally a password) and finish.
// Server-rendered with GET /api/onboarding/status's data; lib/browser/onboarding_wizard.ts steps
// through it and calls /api/onboarding/probe and /complete. "Skip for now" never traps.
import type { ComponentChildren } from "preact";
import type { OnboardingStatus } from "../lib/settings/onboarding.ts";
import { KNOWN_PROVIDERS } from "../lib/providers/provider_config.ts";
import { Badge, NewPasswordInput } from "./control/parts.tsx";
import { t } from "../lib/i18n/t.ts";

export interface OnboardingWizardProps {
  status: OnboardingStatus;
  /** HERMES_WEBUI_PASSWORD is set: no password field. */
  passwordFromEnv: boolean;
}

type ProviderRow = OnboardingStatus["providers"][number];

/** Each provider's one-line description: catalog keys, read when rendering. */
const BLURBS: Record<string, string> = {
  ollama: "onboarding.blurbOllama",
  lmstudio: "onboarding.blurbLmstudio",
  openai: "onboarding.blurbOpenai",
  anthropic: "onboarding.blurbAnthropic",
  openrouter: "onboarding.blurbOpenrouter",
  custom: "onboarding.blurbCustom",
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
        <span class="ob-choice-hint">{BLURBS[p.id] ? t(BLURBS[p.id]) : ""}</span>
      </span>
      <span class="ob-choice-state">
        {local
          ? local.reachable
            ? (
              <Badge tone="success">
                {t("onboarding.running", { count: local.models.length })}
              </Badge>
            )
            : <Badge tone="neutral">{t("onboarding.notRunning")}</Badge>
          : p.has_key
          ? <Badge tone="success">{t("onboarding.keyFound")}</Badge>
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
      <h2 class="ob-step-title" id="ob-provider-h">{t("onboarding.providerStep")}</h2>
      <fieldset class="ob-group">
        <legend class="ob-group-label">{t("onboarding.onThisMachine")}</legend>
        {locals.map((p) => (
          <ProviderChoice key={p.id} p={p} status={status} checked={p.id === preselect} />
        ))}
      </fieldset>
      <fieldset class="ob-group">
        <legend class="ob-group-label">{t("onboarding.hostedApi")}</legend>
        {hosted.map((p) => <ProviderChoice key={p.id} p={p} status={status} checked={false} />)}
      </fieldset>

      <div class="ob-details" data-ob-details>
        <ObField
          field="base_url"
          id="ob-base-url"
          label={t("onboarding.baseUrl")}
          hint={<p class="cc-hint">{t("onboarding.baseUrlHint")}</p>}
        >
          <input
            id="ob-base-url"
            name="base_url"
            type="url"
            // i18n-ignore: an example address, not words
            placeholder="http://127.0.0.1:8000/v1"
            {...MONO}
          />
        </ObField>
        <ObField
          field="api_key"
          id="ob-api-key"
          label={t("onboarding.apiKey")}
          hint={
            <p class="cc-hint" data-ob-key-hint>
              {t("onboarding.apiKeyHint", { path: status.config_path })}
            </p>
          }
        >
          <input id="ob-api-key" name="api_key" type="password" {...MONO} />
        </ObField>
        <div class="ob-probe">
          <button type="button" class="btn cc-btn" data-ob-action="probe">
            {t("onboarding.testConnection")}
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
      <h2 class="ob-step-title" id="ob-model-h">{t("onboarding.modelStep")}</h2>
      <ObField
        id="ob-model"
        label={t("onboarding.model")}
        hint={
          <p class="cc-hint" data-ob-model-hint>
            {t("onboarding.modelHint")}
          </p>
        }
      >
        <select id="ob-model" name="model" class="cc-input mono" data-ob-models />
        <input
          id="ob-model-text"
          name="model_text"
          placeholder={t("onboarding.modelPlaceholder")}
          {...MONO}
          hidden
        />
      </ObField>
      <ObField
        id="ob-workspace"
        label={t("onboarding.workspace")}
        hint={<p class="cc-hint">{t("onboarding.workspaceHint")}</p>}
      >
        <input id="ob-workspace" name="workspace" value={status.workspace} {...MONO} />
      </ObField>
      {passwordFromEnv ? null : (
        <ObField
          id="ob-password"
          label={t("onboarding.password")}
          hint={<p class="cc-hint">{t("onboarding.passwordHint")}</p>}
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
            {t("onboarding.skip")}
          </button>
        )
        : <a class="btn cc-btn cc-btn-quiet" href="/">{t("onboarding.backToConsole")}</a>}
      <p class="ob-status" role="status" aria-live="polite" data-ob-status />
      <button type="button" class="btn cc-btn" data-ob-action="back" hidden>
        {t("common.back")}
      </button>
      <button
        type="submit"
        class="btn cc-btn cc-btn-primary"
        data-ob-action="next"
        disabled={!canContinue}
      >
        {t("onboarding.continue")}
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
          <h1 class="ob-title">{t("onboarding.title")}</h1>
          <p class="ob-lede">{t("onboarding.lede")}</p>
        </div>
      </header>

      <ol class="ob-steps" aria-label={t("onboarding.steps")}>
        <li data-ob-step-mark="provider" aria-current="step">{t("onboarding.stepProvider")}</li>
        <li data-ob-step-mark="model">{t("onboarding.stepModel")}</li>
      </ol>

      {status.config_error
        ? (
          <p class="cc-callout ob-callout" data-tone="error" role="alert">
            {t("onboarding.configError", { error: status.config_error })}
          </p>
        )
        : null}
      {status.has_provider
        ? (
          <p class="cc-callout ob-callout" data-tone="warning">
            {status.default_model
              ? t("onboarding.replacesWithModel", {
                provider: status.provider,
                model: status.default_model,
              })
              : t("onboarding.replaces", { provider: status.provider })}
          </p>
        )
        : null}

      <ProviderStep status={status} locals={locals} hosted={hosted} preselect={preselect} />
      <ModelStep status={status} passwordFromEnv={passwordFromEnv} />
      <WizardFoot needed={status.needed} canContinue={!!preselect} />
    </form>
  );
}
