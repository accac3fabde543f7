// Browser-safe: imports nothing from Deno or the database.
// The approval inbox panel (loaded on first use from the sidebar badge): every session's pending
// approvals as cards — Allow once, Deny, Edit (then run the edited command once). Keys on a
// focused card: `a` allow once, `d` deny, `e` edit. Invariants: server text only ever goes in
// as textContent/value (never markup); an edit refused by the policy (400) keeps the card open.
import { api, ApiError } from "./api_client.ts";
import { el } from "./ui_menu.ts";
import { t } from "../i18n/t.ts";

export interface InboxItem {
  approval_id: string;
  session_id: string;
  session_title: string;
  command: string;
  description: string;
  position: number;
}

export interface InboxAnswer {
  approvals: InboxItem[];
  count: number;
  sessions: number;
}

/** "1 agent is waiting on you" / "3 agents are waiting on you". */
export function waitingLine(sessions: number): string {
  return t("sidebar.agentsWaiting", { count: sessions });
}

let dialog: HTMLDialogElement | null = null;
const STYLESHEET = "/static/approval_inbox.css";

function ensureStyles(): void {
  if (document.querySelector(`link[rel="stylesheet"][href="${STYLESHEET}"]`)) return;
  document.head.append(el("link", { rel: "stylesheet", href: STYLESHEET }));
}

function card(item: InboxItem, refresh: () => Promise<void>): HTMLElement {
  const command = el("textarea", {
    class: "approval-inbox-command",
    rows: "2",
    readonly: true,
    spellcheck: "false",
    "aria-label": t("sidebar.inboxCommand"),
  });
  command.value = item.command;
  const error = el("p", { class: "dialog-error", role: "alert" });
  const allow = el(
    "button",
    { type: "button", class: "btn btn-primary btn-sm" },
    t("sidebar.inboxAllowOnce"),
  );
  const deny = el(
    "button",
    { type: "button", class: "btn btn-secondary btn-sm" },
    t("sidebar.inboxDeny"),
  );
  const edit = el("button", { type: "button", class: "btn btn-ghost btn-sm" }, t("common.edit"));
  const node = el(
    "article",
    {
      class: "approval-inbox-card",
      tabindex: "0",
      "data-approval-id": item.approval_id,
      "aria-label": t("sidebar.inboxCardLabel", { title: item.session_title }),
    },
    el(
      "a",
      { class: "approval-inbox-session", href: `/?session=${encodeURIComponent(item.session_id)}` },
      item.session_title,
    ),
    el("p", { class: "approval-inbox-why" }, item.description),
    command,
    error,
    el("div", { class: "approval-inbox-actions" }, allow, deny, edit),
  );
  const startEdit = () => {
    command.readOnly = false;
    node.classList.add("editing");
    allow.textContent = t("sidebar.inboxRunEdited");
    command.focus();
    command.setSelectionRange(command.value.length, command.value.length);
  };
  const answer = async (choice: "once" | "deny") => {
    error.textContent = "";
    for (const b of [allow, deny, edit]) b.disabled = true;
    const edited = choice === "once" && command.value.trim() !== item.command.trim()
      ? { command: command.value }
      : {};
    try {
      await api("POST", "/api/approval/respond", {
        session_id: item.session_id,
        approval_id: item.approval_id,
        choice,
        ...edited,
      });
      await refresh();
    } catch (err) {
      error.textContent = err instanceof ApiError ? err.message : String(err);
      for (const b of [allow, deny, edit]) b.disabled = false;
    }
  };
  allow.addEventListener("click", () => void answer("once"));
  deny.addEventListener("click", () => void answer("deny"));
  edit.addEventListener("click", startEdit);
  node.addEventListener("keydown", (e) => {
    if (e.target !== node || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === "a") void answer("once");
    else if (k === "d") void answer("deny");
    else if (k === "e") startEdit();
    else return;
    e.preventDefault();
  });
  return node;
}

/** Open (or refresh) the inbox panel; `onChange` hears the new count after each answer. */
export async function openApprovalInbox(onChange: (a: InboxAnswer) => void): Promise<void> {
  ensureStyles();
  if (!dialog) {
    dialog = el("dialog", {
      class: "dialog approval-inbox",
      "aria-labelledby": "approval-inbox-title",
      "data-approval-inbox-panel": true,
    });
    dialog.addEventListener("click", (e) => {
      if (e.target === dialog) dialog?.close();
    });
    // Focus goes back to the opener; when that left with the last answer (the footer's
    // "waiting on you" hides at zero), to the composer rather than nowhere.
    dialog.addEventListener("close", () => {
      const at = document.activeElement;
      if (!at || at === document.body || at.getClientRects().length === 0) {
        (document.getElementById("composer-input") ?? document.getElementById("session-search"))
          ?.focus();
      }
    });
    document.body.append(dialog);
  }
  const d = dialog;
  const refresh = async () => {
    const inbox = await api<InboxAnswer>("GET", "/api/approval/inbox");
    onChange(inbox);
    const close = el(
      "button",
      { type: "button", class: "btn btn-ghost btn-sm" },
      t("common.close"),
    );
    close.addEventListener("click", () => d.close());
    d.replaceChildren(
      el(
        "header",
        { class: "approval-inbox-head" },
        el(
          "h2",
          { class: "dialog-title", id: "approval-inbox-title" },
          inbox.count ? waitingLine(inbox.sessions) : t("sidebar.inboxNothing"),
        ),
        close,
      ),
      el("p", { class: "dialog-text approval-inbox-keys" }, t("sidebar.inboxKeys")),
      ...inbox.approvals.map((item) => card(item, refresh)),
    );
    const first = d.querySelector<HTMLElement>(".approval-inbox-card");
    // The answered card went with the old content: focus the next one, else Close.
    if (d.open) (first ?? close).focus();
  };
  await refresh();
  if (!d.open) d.showModal();
  d.querySelector<HTMLElement>(".approval-inbox-card")?.focus();
}
