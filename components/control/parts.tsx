// Building blocks shared by the Control Center's panels: a titled section, a labelled field
// with its hint, a live status line the page script writes into, a state badge and the
// two-step confirmation row. Server-rendered; lib/client/control_center.ts gives them life.
import type { ComponentChildren } from "preact";

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
        <button type="button" class="btn cc-btn" data-cc-cancel>Cancel</button>
      </div>
    </div>
  );
}
