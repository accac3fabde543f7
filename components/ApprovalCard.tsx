// A command waiting for the user's approval: prominent on purpose (DESIGN.md lets states that
// need action stand out). The command in mono, why it needs approval, how many are queued, and
// the four answers of POST /api/approval/respond — Enter allows once. A card whose approval was
// already answered elsewhere (409) asks its owner to refresh instead of dead-ending.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import type { ApprovalEventData } from "../lib/shared/chat_events.ts";
import { Icon } from "./Icon.tsx";
import { AlwaysCategory } from "./ApprovalScopeChoice.tsx";

export type ApprovalChoice = "once" | "session" | "always" | "deny";

export interface ApprovalCardProps {
  sessionId: string;
  approval: ApprovalEventData;
  pendingCount: number;
  /** Answered (`pendingCount` left), or stale (null): the owner refreshes the queue. */
  onSettled: (pendingCount: number | null) => void;
}

/**
 * The ways to allow, in the order the card offers them; "once" has the focus. Lasting grants
 * cover this exact command in this workspace by default (scope `command`); the whole category
 * (scope `pattern`) is a separate, explicit choice.
 */
const ALLOW: ReadonlyArray<{
  choice: Exclude<ApprovalChoice, "deny">;
  scope?: "command" | "pattern";
  label: string;
  primary?: boolean;
  kbd?: string;
  title?: string;
}> = [
  { choice: "once", label: "Allow once", primary: true, kbd: "Enter" },
  {
    choice: "session",
    label: "Allow for this session",
    title: "Commands of this kind, in this chat only, until it ends",
  },
  {
    choice: "always",
    scope: "command",
    label: "Always allow this exact command",
    title: "Only this exact command text, only in this workspace; saved to config.yaml",
  },
];

function typing(el: EventTarget | null): boolean {
  return el instanceof HTMLElement &&
    (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

export function ApprovalCard({ sessionId, approval, pendingCount, onSettled }: ApprovalCardProps) {
  const [busy, setBusy] = useState<ApprovalChoice | null>(null);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const allow = useRef<HTMLButtonElement>(null);
  const reasonField = useRef<HTMLInputElement>(null);

  // Focus "Allow once" so Enter answers, unless the user is in the middle of typing something
  // (an empty composer does not count: the run is blocked on this card anyway).
  useEffect(() => {
    const el = document.activeElement;
    const drafting = typing(el) &&
      !((el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) && !el.value);
    if (!drafting) allow.current?.focus({ preventScroll: true });
  }, [approval.approval_id]);
  useEffect(() => {
    if (denying) reasonField.current?.focus();
  }, [denying]);

  async function respond(choice: ApprovalChoice, scope?: "command" | "pattern") {
    if (busy) return;
    setBusy(choice);
    setError(null);
    try {
      const message = choice === "deny" ? reason.trim() : "";
      const res = await api<{ pending_count?: number }>("POST", "/api/approval/respond", {
        session_id: sessionId,
        choice,
        approval_id: approval.approval_id,
        ...(scope ? { scope } : {}),
        ...(message ? { message } : {}),
      });
      onSettled(typeof res.pending_count === "number" ? res.pending_count : null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) onSettled(null);
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section
      class="approval-card"
      role="alertdialog"
      aria-labelledby={`approval-title-${approval.approval_id}`}
      aria-describedby={`approval-desc-${approval.approval_id}`}
      data-approval-id={approval.approval_id}
      onKeyDown={(e) => {
        if (e.key === "Enter" && !e.shiftKey && !typing(e.target) && !denying) {
          e.preventDefault();
          respond("once");
        } else if (e.key === "Escape" && denying) setDenying(false);
      }}
    >
      <header class="approval-head">
        <Icon name="alert" class="approval-icon" />
        <span class="approval-title" id={`approval-title-${approval.approval_id}`}>
          Approve this command?
        </span>
        <span class="approval-count">{pendingCount} pending</span>
      </header>
      <pre class="approval-command">{approval.command}</pre>
      <p class="approval-desc" id={`approval-desc-${approval.approval_id}`}>
        {approval.description}
      </p>
      {denying
        ? (
          <form
            class="approval-deny"
            onSubmit={(e) => {
              e.preventDefault();
              respond("deny");
            }}
          >
            <label class="visually-hidden" for={`deny-reason-${approval.approval_id}`}>
              Reason for denying
            </label>
            <input
              id={`deny-reason-${approval.approval_id}`}
              ref={reasonField}
              class="approval-reason"
              type="text"
              maxLength={4000}
              placeholder="Why not? The agent reads this (optional)"
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
            />
            <button type="submit" class="btn btn-danger-quiet" data-choice="deny" disabled={!!busy}>
              Deny
            </button>
            <button type="button" class="btn btn-quiet" onClick={() => setDenying(false)}>
              Cancel
            </button>
          </form>
        )
        : (
          <div class="approval-actions">
            {ALLOW.map((a) => (
              <button
                key={a.choice}
                ref={a.choice === "once" ? allow : undefined}
                type="button"
                class={a.primary ? "btn btn-primary" : "btn"}
                data-choice={a.choice}
                disabled={!!busy}
                title={a.title}
                onClick={() => respond(a.choice, a.scope)}
              >
                {a.kbd
                  ? (
                    <>
                      {a.label} <kbd>{a.kbd}</kbd>
                    </>
                  )
                  : a.label}
              </button>
            ))}
            <AlwaysCategory
              keys={approval.pattern_keys ?? [approval.pattern_key]}
              disabled={!!busy}
              onClick={() => respond("always", "pattern")}
            />
            <button
              type="button"
              class="btn btn-danger-quiet"
              data-choice="deny-open"
              disabled={!!busy}
              onClick={() => setDenying(true)}
            >
              Deny…
            </button>
          </div>
        )}
      {error ? <p class="card-error" role="alert">{error}</p> : null}
    </section>
  );
}
