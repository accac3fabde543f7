// Building blocks shared by the Control Center's panels: a titled section, a labelled field
// with its hint, a live status line the page script writes into, a state badge and the
// two-step confirmation row. Server-rendered; lib/browser/pages/control_center.ts gives them life.
import type { ComponentChildren } from "preact";
import { t } from "../../lib/i18n/t.ts";

const SLOT = "\u{E000}";

/**
 * The message `key` with an element in it: the argument `slot` marks where `node` goes, so
 * each language keeps its own word order ("Shared {time}", "{time} に共有").
 */
export function withNode(
  key: string,
  slot: string,
  node: ComponentChildren,
  values: Record<string, string | number> = {},
): ComponentChildren {
  const [before, after = ""] = t(key, { ...values, [slot]: SLOT }).split(SLOT);
  return <>{before}{node}{after}</>;
}

export function Section(
  { title, description, actions, children, hook }: {
    title: string;
    description?: ComponentChildren;
    actions?: ComponentChildren;
    children?: ComponentChildren;
    /** Stable hook: `data-cc-block`. */
    hook?: string;
  },
) {
  return (
    <section class="cc-block" data-cc-block={hook}>
      <div class="cc-block-head">
        <div class="cc-block-titles">
          <h4 class="cc-block-title">{title}</h4>
          {description ? <p class="cc-block-desc">{description}</p> : null}
        </div>
        {actions ? <div class="cc-block-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export function Field(
  { label, hint, id, children, wide }: {
    label: string;
    hint?: ComponentChildren;
    /** The control's id (the label points at it). */
    id: string;
    children: ComponentChildren;
    wide?: boolean;
  },
) {
  return (
    <div class={wide ? "cc-field cc-field-wide" : "cc-field"}>
      <label class="cc-label" for={id}>{label}</label>
      {children}
      {hint ? <p class="cc-hint" id={`${id}-hint`}>{hint}</p> : null}
    </div>
  );
}

/**
 * A one-line monospace text field for names and ids (a model, a path, a voice): no autocomplete
 * or spellcheck; with `list`, a datalist of that id holds `suggestions`. `hooks` are the
 * data-* attributes the panel's script finds it by.
 */
export function MonoTextField(
  { id, name, label, hint, value, list, suggestions, maxLength, hooks }: {
    id: string;
    name: string;
    label: string;
    hint: string;
    value: string;
    list?: string;
    suggestions?: ComponentChildren;
    maxLength?: number;
    hooks?: Record<`data-${string}`, string | boolean>;
  },
) {
  return (
    <Field id={id} label={label} hint={hint}>
      <input
        id={id}
        name={name}
        class="cc-input mono"
        value={value}
        list={list}
        autocomplete="off"
        spellcheck={false}
        maxLength={maxLength}
        {...hooks}
      />
      {list ? <datalist id={list}>{suggestions}</datalist> : null}
    </Field>
  );
}

/** A labelled on/off switch with its hint; `hooks` are the data-* attributes its script reads. */
export function SwitchField(
  { checked, label, hint, hooks }: {
    checked: boolean;
    label: string;
    hint: string;
    hooks: Record<`data-${string}`, string>;
  },
) {
  return (
    <label class="cc-toggle">
      <input type="checkbox" role="switch" {...hooks} checked={checked} />
      <span class="cc-toggle-track" aria-hidden="true" />
      <span class="cc-toggle-text">
        {label}
        <span class="cc-hint">{hint}</span>
      </span>
    </label>
  );
}

/** Where a form reports "Saved" or the server's error sentence (announced politely). */
export function StatusLine({ hook }: { hook?: string }) {
  return <p class="cc-status" role="status" aria-live="polite" data-cc-status={hook ?? ""} />;
}

export type Tone = "success" | "warning" | "error" | "neutral";

export function Badge({ tone, children }: { tone: Tone; children: ComponentChildren }) {
  return (
    <span class="cc-badge" data-tone={tone}>
      <span class="cc-dot" aria-hidden="true" />
      {children}
    </span>
  );
}

/**
 * A destructive action in two steps: the button reveals a confirmation row (no window
 * dialogs); `action` names what the page script does on confirm.
 */
export function ConfirmAction(
  { label, question, confirm, action, data }: {
    label: string;
    question: ComponentChildren;
    confirm: string;
    action: string;
    data?: Record<string, string>;
  },
) {
  const attrs = Object.fromEntries(
    Object.entries(data ?? {}).map(([k, v]) => [`data-${k}`, v]),
  );
  return (
    <div class="cc-confirmable">
      <button type="button" class="btn cc-btn cc-btn-danger" data-cc-ask>
        {label}
      </button>
      <div class="cc-confirm" role="group" hidden>
        <span class="cc-confirm-q">{question}</span>
        <button
          type="button"
          class="btn cc-btn cc-btn-danger-solid"
          data-cc-action={action}
          {...attrs}
        >
          {confirm}
        </button>
        <button type="button" class="btn cc-btn" data-cc-cancel>{t("common.cancel")}</button>
      </div>
    </div>
  );
}

/**
 * One item of a `cc-rows` list (a skill, an MCP server): its name with chips/badges, a meta
 * line, and the row actions (an enable switch, then buttons). `attrs` carries the row's
 * stable `data-*` hooks.
 */
export function ListRow(
  { attrs, name, tags, meta, actions }: {
    attrs: Record<string, string>;
    name: string;
    /** Everything after the name in the title line (chips, badge). */
    tags?: ComponentChildren;
    /** The line(s) under the title. */
    meta?: ComponentChildren;
    actions: ComponentChildren;
  },
) {
  return (
    <li class="cc-row" {...attrs}>
      <div class="cc-row-main">
        <div class="cc-row-title">
          <span class="mono cc-row-name">{name}</span>
          {tags}
        </div>
        {meta}
      </div>
      <div class="cc-row-actions">{actions}</div>
    </li>
  );
}

/** A row's small enable/disable switch; the page script runs `action` with `data-name`. */
export function RowToggle(
  { action, name, enabled }: { action: string; name: string; enabled: boolean },
) {
  return (
    <label
      class="cc-toggle cc-toggle-small"
      title={enabled ? t("control.disable") : t("control.enable")}
    >
      <input
        type="checkbox"
        role="switch"
        data-cc-action={action}
        data-name={name}
        checked={enabled}
        aria-label={t("control.itemEnabled", { name })}
      />
      <span class="cc-toggle-track" aria-hidden="true" />
    </label>
  );
}

/** A quiet row button naming its item for screen readers (`<label> <name>`). */
export function RowButton(
  { action, name, label, disabled }: {
    action: string;
    name: string;
    label: string;
    disabled?: boolean;
  },
) {
  return (
    <button
      type="button"
      class="btn cc-btn cc-btn-quiet"
      data-cc-action={action}
      data-name={name}
      disabled={disabled}
      aria-label={t("control.rowAction", { action: label, name })}
    >
      {label}
    </button>
  );
}

/**
 * The foot of an item's edit form: the two-step delete (when editing an existing item), the
 * form's status line, Cancel and the submit button.
 */
export function FormFoot(
  { remove, status, cancelAction, submit }: {
    remove?: { question: ComponentChildren; confirm: string; action: string; name: string };
    status: string;
    cancelAction: string;
    submit: string;
  },
) {
  return (
    <div class="cc-form-foot">
      {remove
        ? (
          <ConfirmAction
            label={t("control.deleteAsk")}
            question={remove.question}
            confirm={remove.confirm}
            action={remove.action}
            data={{ name: remove.name }}
          />
        )
        : null}
      <StatusLine hook={status} />
      <button type="button" class="btn cc-btn" data-cc-action={cancelAction}>
        {t("common.cancel")}
      </button>
      <button type="submit" class="btn cc-btn cc-btn-primary">{submit}</button>
    </div>
  );
}

/** A new password (8 characters at least): the browser may offer to generate and keep it. */
export function NewPasswordInput(
  { id, name, required }: { id: string; name: string; required?: boolean },
) {
  return (
    <input
      id={id}
      name={name}
      type="password"
      class="cc-input"
      minLength={8}
      autocomplete="new-password"
      required={required}
    />
  );
}
