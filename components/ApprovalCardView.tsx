// A command waiting for the user's approval: prominent on purpose (DESIGN.md lets states that
// need action stand out). The command in mono, why it needs approval, how many are queued, and
// the four answers of POST /api/approval/respond — Enter allows once. A card whose approval was
// already answered elsewhere (409) asks its owner to refresh instead of dead-ending. While the page
// cannot reach its server (lib/browser/connection_status.ts) every answer is disabled and the card
// says so; they come back with the connection. Loaded on the first approval a page shows
// (components/ApprovalCard.tsx), not with the page.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import type { ApprovalEventData } from "../lib/shared/chat_events.ts";
import { Icon } from "./Icon.tsx";
import { AlwaysCategory } from "./ApprovalScopeChoice.tsx";
import { t } from "../lib/i18n/t.ts";
import { onHermesEvent } from "../lib/shared/ui_events.ts";
import { pageReach } from "../lib/browser/connection_status.ts";

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
  /** Catalog keys of the button text and its tooltip. */
  labelKey: string;
  primary?: boolean;
  kbd?: string;
  titleKey?: string;
}> = [
  { choice: "once", labelKey: "approvals.allowOnce", primary: true, kbd: "Enter" },
  {
    choice: "session",
    labelKey: "approvals.allowSession",
    titleKey: "approvals.allowSessionTitle",
  },
  {
    choice: "always",
    scope: "command",
    labelKey: "approvals.allowAlwaysCommand",
    titleKey: "approvals.allowAlwaysCommandTitle",
  },
];

function typing(el: EventTarget | null): boolean {
  return el instanceof HTMLElement &&
    (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

function pressable(el: EventTarget | null): boolean {
  return el instanceof Element && el.closest("button, a[href], summary") !== null;
}

/**
 * Focus "Allow once" so Enter answers, unless the user is in the middle of typing something
 * (an empty composer does not count: the run is blocked on this card anyway). When the card
 * goes (answered), focus that was inside it, or lost with it, returns to where it was before
 * (else to the composer).
 */
function useCardFocus(
  card: { current: HTMLElement | null },
  allow: { current: HTMLButtonElement | null },
  approvalId: string,
) {
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = document.activeElement;
    const drafting = typing(el) &&
      !((el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) && !el.value);
    // Where to come back to is kept even when the card does not take focus (the person is
    // typing): if they then Tab into the card and answer, focus still returns there.
    if (el instanceof HTMLElement && el !== document.body && !card.current?.contains(el)) {
      returnTo.current = el;
    }
    if (drafting) return;
    allow.current?.focus({ preventScroll: true });
  }, [approvalId]);
  useEffect(() => {
    // The card element is kept here: by the time the cleanup runs the ref may already be null.
    const self = card.current;
    return () => {
      const el = document.activeElement;
      const lost = !el || el === document.body || !el.isConnected || !!self?.contains(el);
      if (!lost) return;
      // Back where it was; when that is gone (or focus was nowhere), to the composer, where the
      // keyboard belongs once the run can go on.
      const back = returnTo.current?.isConnected
        ? returnTo.current
        : document.querySelector<HTMLElement>("#composer-input");
      back?.focus({ preventScroll: true });
    };
  }, []);
}

/** Opening the reason focuses its field; backing out of it puts focus back on "Deny…". */
function useDenyFocus(
  denying: boolean,
  reasonField: { current: HTMLInputElement | null },
  denyOpen: { current: HTMLButtonElement | null },
): void {
  const wasDenying = useRef(false);
  useEffect(() => {
    if (denying) reasonField.current?.focus();
    else if (wasDenying.current) denyOpen.current?.focus();
    wasDenying.current = denying;
  }, [denying]);
}

/** Whether the page reaches its server, following `hermes:connection`. */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => pageReach() === "online");
  useEffect(() => onHermesEvent("hermes:connection", (d) => setOnline(d.online)), []);
  return online;
}

export function ApprovalCardView(
  { sessionId, approval, pendingCount, onSettled }: ApprovalCardProps,
) {
  const [busy, setBusy] = useState<ApprovalChoice | null>(null);
  const online = useOnline();
  // Offline, an answer could not be sent: nothing pretends it can be.
  const locked = !!busy || !online;
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const allow = useRef<HTMLButtonElement>(null);
  const reasonField = useRef<HTMLInputElement>(null);
  const denyOpen = useRef<HTMLButtonElement>(null);
  const card = useRef<HTMLElement>(null);
  useCardFocus(card, allow, approval.approval_id);
  useDenyFocus(denying, reasonField, denyOpen);

  async function respond(choice: ApprovalChoice, scope?: "command" | "pattern") {
    if (locked) return;
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
      ref={card}
      class="approval-card"
      role="alertdialog"
      aria-labelledby={`approval-title-${approval.approval_id}`}
      aria-describedby={`approval-desc-${approval.approval_id}`}
      data-approval-id={approval.approval_id}
      data-offline={online ? undefined : ""}
      onKeyDown={(e) => {
        // Enter on a button is that button's own answer (Deny… must not allow once).
        if (
          e.key === "Enter" && !e.shiftKey && !typing(e.target) && !denying && !pressable(e.target)
        ) {
          e.preventDefault();
          respond("once");
        } else if (e.key === "Escape" && denying) {
          // Handled: the page's Escape (stop the run) must not see it.
          e.preventDefault();
          setDenying(false);
        }
      }}
    >
      <header class="approval-head">
        <Icon name="alert" class="approval-icon" />
        <span class="approval-title" id={`approval-title-${approval.approval_id}`}>
          {t("approvals.title")}
        </span>
        <span class="approval-count">{t("approvals.pending", { count: pendingCount })}</span>
      </header>
      {/* The agent's text: isolated, so its direction never reorders the card's own words. */}
      <pre class="approval-command" dir="auto">{approval.command}</pre>
      <p class="approval-desc" id={`approval-desc-${approval.approval_id}`} dir="auto">
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
              {t("approvals.denyReason")}
            </label>
            <input
              id={`deny-reason-${approval.approval_id}`}
              ref={reasonField}
              class="approval-reason"
              type="text"
              maxLength={4000}
              placeholder={t("approvals.denyReasonPlaceholder")}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
            />
            <button type="submit" class="btn btn-danger-quiet" data-choice="deny" disabled={locked}>
              {t("approvals.deny")}
            </button>
            <button type="button" class="btn btn-quiet" onClick={() => setDenying(false)}>
              {t("common.cancel")}
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
                disabled={locked}
                title={a.titleKey ? t(a.titleKey) : undefined}
                onClick={() => respond(a.choice, a.scope)}
              >
                {a.kbd
                  ? (
                    <>
                      {t(a.labelKey)} <kbd>{a.kbd}</kbd>
                    </>
                  )
                  : t(a.labelKey)}
              </button>
            ))}
            <AlwaysCategory
              keys={approval.pattern_keys ?? [approval.pattern_key]}
              disabled={locked}
              onClick={() => respond("always", "pattern")}
            />
            <button
              ref={denyOpen}
              type="button"
              class="btn btn-danger-quiet"
              data-choice="deny-open"
              disabled={locked}
              onClick={() => setDenying(true)}
            >
              {t("approvals.denyOpen")}
            </button>
          </div>
        )}
      {online ? null : <p class="approval-offline">{t("approvals.offline")}</p>}
      {error ? <p class="card-error" role="alert">{error}</p> : null}
    </section>
  );
}
