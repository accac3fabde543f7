// Browser-safe: imports nothing from Deno or the database.
// What the message action rows do (components/transcript/MessageActions.tsx): one delegated
// click listener for the page, so rows rendered later (live turns, older pages) need no wiring.
// Copy puts the stored markdown on the clipboard; Regenerate, the ‹ n/m › switcher (drawn by
// lib/browser/answer_variants.ts), Edit & resend
// and Retry on an interrupted turn's notice change the session on the server and reload it; Fork opens the new chat; Read
// aloud speaks the answer (lib/browser/voice/read_aloud.ts, loaded on its first press).
// Time, tokens and cost load on the first hover or focus of a row (GET /api/session/turns), for
// live and reloaded turns alike: a run starting or ending here drops what was read, since a turn's
// usage row is written as its run ends. Estimated counts read "~1.2k in" and say so.
// Invariant: a turn is found by its turn id, else its user message idx, in the stored messages.
import { api, ApiError } from "./api_client.ts";
import { formatDate, formatNumber, t } from "../i18n/t.ts";
import { onHermesEvent } from "../shared/ui_events.ts";
import { installMessageReveal, revealRowAt } from "./message_reveal.ts";

interface Msg {
  idx: number;
  role: string;
  content: unknown;
  turn_id?: string;
}

interface TurnMeta {
  user_idx: number;
  turn_id: string | null;
  asked_at: number;
  answered_at: number | null;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  /** False until the turn's run has ended (no usage row yet), and for imported turns. */
  metered?: boolean;
  /** The provider reported no usage: the counts are characters ÷ 4. */
  estimated?: boolean;
}

const text = (c: unknown): string =>
  typeof c === "string"
    ? c
    : Array.isArray(c)
    ? c.map((p) => (p && typeof p.text === "string" ? p.text : "")).filter(Boolean).join("\n")
    : "";

async function messages(sessionId: string): Promise<Msg[]> {
  const res = await api<{ session: { messages: Msg[] } }>(
    "GET",
    `/api/session?session_id=${encodeURIComponent(sessionId)}`,
  );
  return res.session.messages;
}

/** The turn a row belongs to: its user message and the messages up to the next one. */
function turnOf(all: Msg[], row: HTMLElement): { user: Msg; reply: Msg[] } | null {
  const id = row.dataset.turnId;
  const idx = row.dataset.userIdx ? Number(row.dataset.userIdx) : null;
  const at = all.findIndex((m) => m.role === "user" && (id ? m.turn_id === id : m.idx === idx));
  if (at < 0) return null;
  const next = all.findIndex((m, i) => i > at && m.role === "user");
  return { user: all[at], reply: all.slice(at + 1, next < 0 ? undefined : next) };
}

async function copyText(value: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = value;
    area.className = "visually-hidden";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

function say(btn: HTMLElement, label: string): void {
  const span = btn.querySelector("span");
  if (!span) return;
  const was = span.textContent;
  span.textContent = label;
  setTimeout(() => span.textContent = was, 1500);
}

const clock = (at: number) => formatDate(at * 1000, { dateStyle: "medium", timeStyle: "short" });
const tokens = (n: number) =>
  n >= 1000
    ? t("transcript.tokensThousands", {
      value: formatNumber(n / 1000, {
        useGrouping: false,
        maximumFractionDigits: 1,
        minimumFractionDigits: 1,
      }),
    })
    : formatNumber(n, { useGrouping: false });

/** A turn's cost: US dollars to four decimals ("$0.0123"). */
const USD: Intl.NumberFormatOptions = {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 4,
  maximumFractionDigits: 4,
};

/** "13.2k in · 560 out", "~1.2k in · ~300 out" when estimated; null before the turn is metered. */
function usageText(turn: TurnMeta): string | null {
  if (turn.metered === false) return null;
  const values = { input: tokens(turn.input_tokens), output: tokens(turn.output_tokens) };
  return t(turn.estimated ? "transcript.tokensInOutEstimated" : "transcript.tokensInOut", values);
}

/** Fill every row's time and usage (once per page; later rows fill on their own hover). */
async function showMeta(sessionId: string, cache: { turns?: Promise<TurnMeta[]> }) {
  cache.turns ??= api<{ turns: TurnMeta[] }>(
    "GET",
    `/api/session/turns?session_id=${encodeURIComponent(sessionId)}`,
  ).then((r) => r.turns);
  const turns = await cache.turns.catch(() => []);
  for (const row of document.querySelectorAll<HTMLElement>(".msg-actions")) {
    const id = row.dataset.turnId;
    const idx = row.dataset.userIdx ? Number(row.dataset.userIdx) : null;
    const turn = turns.find((x) => id ? x.turn_id === id : x.user_idx === idx);
    const out = row.querySelector<HTMLElement>(".msg-meta-text");
    if (!turn || !out) continue;
    const value = row.classList.contains("msg-actions-user")
      ? t("transcript.sentTime", { time: clock(turn.asked_at) })
      : [
        turn.answered_at ? clock(turn.answered_at) : null,
        usageText(turn),
        turn.cost != null ? formatNumber(turn.cost, USD) : null,
      ].filter(Boolean).join(" · ");
    out.textContent = value;
    const btn = out.parentElement;
    if (!btn) continue;
    const estimated = !row.classList.contains("msg-actions-user") && !!turn.estimated;
    btn.toggleAttribute("data-estimated", estimated);
    // The "~" alone says little: hover and screen readers are told what was estimated and why.
    const told = estimated ? `${value} (${t("transcript.tokensEstimated")})` : value;
    btn.setAttribute("title", told);
    // The visible text must be part of the button's name (WCAG 2.5.3, axe
    // label-content-name-mismatch): "Sent …" names itself; the usage keeps its label in front.
    btn.dataset.label ??= btn.getAttribute("aria-label") ?? "";
    if (row.classList.contains("msg-actions-user")) btn.removeAttribute("aria-label");
    else {
      btn.setAttribute(
        "aria-label",
        t("a11y.nameWithValue", { name: btn.dataset.label, value: told }),
      );
    }
  }
}

function editInPlace(row: HTMLElement, sessionId: string, user: Msg): void {
  const bubble = row.closest(".msg-user")?.querySelector<HTMLElement>(".msg-user-bubble");
  if (!bubble || row.closest(".msg-user")?.querySelector(".msg-edit")) return;
  const form = document.createElement("form");
  form.className = "msg-edit";
  const area = document.createElement("textarea");
  area.value = text(user.content);
  area.setAttribute("aria-label", t("transcript.editMessage"));
  const send = document.createElement("button");
  send.type = "submit";
  send.className = "btn btn-primary";
  send.textContent = t("transcript.send");
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "btn btn-secondary";
  cancel.textContent = t("common.cancel");
  // The dialogs' field and button row (static/sidebar.css): one form style everywhere.
  area.className = "field-input";
  area.dir = "auto";
  const actions = document.createElement("div");
  actions.className = "dialog-actions";
  actions.append(cancel, send);
  form.append(area, actions);
  bubble.hidden = true;
  bubble.after(form);
  area.focus();
  cancel.onclick = () => (form.remove(), bubble.hidden = false);
  form.onsubmit = async (e) => {
    e.preventDefault();
    const message = area.value.trim();
    if (!message) return;
    send.disabled = true;
    try {
      await api("POST", "/api/session/truncate", { session_id: sessionId, keep_count: user.idx });
      await api("POST", "/api/chat/start", { session_id: sessionId, message });
      location.reload();
    } catch (err) {
      send.disabled = false;
      alert(err instanceof ApiError ? err.message : String(err));
    }
  };
}

async function act(sessionId: string, btn: HTMLElement, row: HTMLElement): Promise<void> {
  const action = btn.dataset.action;
  if (action === "meta") return;
  if (action === "read-aloud") {
    return (await import("./voice/read_aloud.ts")).toggleReadAloud(btn); // loads on first use
  }
  if (action === "variant") {
    await api("POST", "/api/session/variant", {
      session_id: sessionId,
      variant: Number(btn.dataset.variant),
    });
    return location.reload();
  }
  if (action === "regenerate") {
    await api("POST", "/api/session/regenerate", { session_id: sessionId });
    return location.reload();
  }
  const turn = turnOf(await messages(sessionId), row);
  if (!turn) return;
  if (action === "copy-user") {
    const ok = await copyText(text(turn.user.content));
    return say(btn, ok ? t("common.copied") : t("transcript.copyFailed"));
  }
  if (action === "copy-answer") {
    const md = turn.reply.filter((m) => m.role === "assistant").map((m) => text(m.content).trim())
      .filter(Boolean).join("\n\n");
    return say(btn, await copyText(md) ? t("common.copied") : t("transcript.copyFailed"));
  }
  if (action === "fork") {
    const last = turn.reply.at(-1) ?? turn.user;
    const res = await api<{ session_id: string }>("POST", "/api/session/branch", {
      session_id: sessionId,
      keep_count: last.idx + 1,
    });
    return location.assign(`/?session=${encodeURIComponent(res.session_id)}`);
  }
  if (action === "edit-user") editInPlace(row, sessionId, turn.user);
}

/** Retry on an interrupted last turn: its user message runs again, like Regenerate. */
async function retryTurn(sessionId: string, btn: HTMLButtonElement): Promise<void> {
  btn.disabled = true;
  try {
    await api("POST", "/api/session/retry", { session_id: sessionId, run: true });
    location.reload();
  } catch (err) {
    btn.disabled = false;
    alert(err instanceof ApiError ? err.message : String(err));
  }
}

/**
 * Install the listeners for the transcript of `sessionId`; returns the uninstaller. `first` is
 * the interaction heard before they were installed (the one that loaded this module): a click
 * on an action or a message, or a hover/focus that fills the rows' time and usage.
 */
export function installMessageActions(sessionId: string, first?: Event): () => void {
  const cache: { turns?: Promise<TurnMeta[]> } = {};
  const onClick = (e: MouseEvent) => {
    const retry = (e.target as Element | null)?.closest?.("[data-retry-turn]");
    if (retry instanceof HTMLButtonElement) return void retryTurn(sessionId, retry);
    const btn = (e.target as Element | null)?.closest?.(".msg-action") as HTMLElement | null;
    const row = btn?.closest<HTMLElement>(".msg-actions");
    if (!btn || !row) return;
    act(sessionId, btn, row).catch((err) =>
      alert(err instanceof ApiError ? err.message : String(err))
    );
  };
  const onPeek = (e: Event) => {
    if ((e.target as Element | null)?.closest?.(".msg-actions, .turn")) {
      void showMeta(sessionId, cache);
    }
  };
  // A turn's usage row is written as its run ends: what was read before (a hover during the
  // run) would show the finished turn as unmetered. Rows already shown are filled again.
  const offRun = onHermesEvent("hermes:run-state", (d) => {
    if (d.session_id !== sessionId) return;
    const looked = cache.turns !== undefined;
    cache.turns = undefined;
    if (!d.active && looked) requestAnimationFrame(() => void showMeta(sessionId, cache));
  });
  const offReveal = installMessageReveal();
  document.addEventListener("click", onClick);
  document.addEventListener("focusin", onPeek);
  document.addEventListener("pointerover", onPeek, { passive: true });
  // The interaction that loaded this module happened before its listeners: act on it now.
  if (first?.type === "click") {
    onClick(first as MouseEvent);
    if (first.target instanceof Element) revealRowAt(first.target);
  } else if (first) onPeek(first);
  return () => {
    offReveal();
    offRun();
    document.removeEventListener("click", onClick);
    document.removeEventListener("focusin", onPeek);
    document.removeEventListener("pointerover", onPeek);
  };
}
