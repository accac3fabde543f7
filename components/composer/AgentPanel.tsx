// The composer's agent-setup popovers: the small form that fills a saved prompt's {{variables}}
// (then the filled text goes into the draft), the /personality list (a click sets it for this
// chat) and a quiet notice (/goal status). Loaded on first use by ComposerPopovers (dynamic
// import), so none of it costs anything before then. Rendered inside the Composer island.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import type { AgentPanel as AgentPanelState } from "../../lib/browser/composer/composer_commands.ts";
import { fillPrompt, setPersonality } from "../../lib/browser/composer/agent_commands.ts";
import { Icon } from "../Icon.tsx";
import { t } from "../../lib/i18n/t.ts";
import { textAround } from "../../lib/browser/composer_state.ts";

const TITLES = { prompt: "composer.promptTitle", personality: "composer.personalities" } as const;

export function AgentPanel({ model: m, state }: { model: ComposerModel; state: AgentPanelState }) {
  const title = state.kind === "notice" ? state.title : t(TITLES[state.kind]);
  return (
    <div
      class="composer-pop composer-panel"
      data-popover={state.kind}
      role="dialog"
      aria-label={state.kind === "prompt" ? `${title}: ${state.name}` : title}
    >
      <div class="cpanel-head">
        <p class="cpanel-title">
          {title}
          {state.kind === "prompt" ? <span class="mono cpanel-sub">{state.name}</span> : null}
        </p>
        <button
          type="button"
          class="pop-close"
          aria-label={t("common.close")}
          onClick={() => (m.panel.value = null, m.view.focus())}
        >
          <Icon name="x" size={13} />
        </button>
      </div>
      {state.kind === "prompt" ? <PromptForm model={m} state={state} /> : null}
      {state.kind === "personality" ? <Personalities model={m} list={state.list} /> : null}
      {state.kind === "notice" ? <p class="cpanel-text cpanel-pre">{state.text}</p> : null}
    </div>
  );
}

function PromptForm(
  { model: m, state }: {
    model: ComposerModel;
    state: Extract<AgentPanelState, { kind: "prompt" }>;
  },
) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // The first variable takes the focus (autofocus only works on page load).
  useEffect(() => box.current?.querySelector("input")?.focus(), [state.name]);
  const missing = state.variables.filter((v) => !(values[v] ?? "").trim());
  // A form nested in the composer's form is not allowed: a div with its own Enter handling.
  const submit = async () => {
    if (missing.length || busy) return;
    setBusy(true);
    await m.withHost((h) => fillPrompt(h, state.name, values));
    setBusy(false);
  };
  return (
    <div
      ref={box}
      class="prompt-vars"
      data-prompt-form={state.name}
      onKeyDown={(e) => {
        if (e.key === "Enter" && !e.shiftKey) (e.preventDefault(), void submit());
        if (e.key === "Escape") (e.preventDefault(), m.panel.value = null, m.view.focus());
      }}
    >
      {state.variables.map((v) => (
        <label key={v} class="prompt-var">
          <span class="prompt-var-name mono">{v}</span>
          <input
            class="cc-input"
            name={v}
            value={values[v] ?? ""}
            autocomplete="off"
            onInput={(e) => setValues({ ...values, [v]: e.currentTarget.value })}
          />
        </label>
      ))}
      <div class="prompt-vars-foot">
        <button
          type="button"
          class="btn cc-btn cc-btn-primary"
          data-action="prompt-fill"
          disabled={missing.length > 0 || busy}
          onClick={() => void submit()}
        >
          {t("composer.insert")}
        </button>
      </div>
    </div>
  );
}

function Personalities(
  { model: m, list }: { model: ComposerModel; list: Array<{ name: string; description: string }> },
) {
  if (list.length === 0) {
    const [before, after] = textAround("composer.noPersonalities", "key");
    return (
      <p class="cpanel-text">
        {before}
        {/* i18n-ignore: a config.yaml key */}
        <span class="mono">agent.personalities</span>
        {after}
      </p>
    );
  }
  const pick = (name: string) => void m.withHost((h) => setPersonality(h, name));
  return (
    <ul class="pop-list" role="listbox" aria-label={t("composer.personalities")}>
      {[...list, { name: "", description: t("composer.defaultVoice") }].map((p) => (
        <li
          key={p.name}
          class="pop-option slash-option"
          role="option"
          aria-selected="false"
          data-personality={p.name}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => pick(p.name)}
        >
          <span class="slash-label">{p.name || t("composer.personalityNone")}</span>
          {p.description ? <span class="slash-detail">{p.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}
