// Browser-safe: imports nothing from Deno or the database.
// The context ring in the top bar: the share of the model's window the chat's last request
// used (GET /api/session/context), re-read when a run ends. As it fills it turns amber and a
// click offers compression (puts `/compress ` in the composer, ready for an optional focus).
import { api } from "./api_client.ts";
import { onHermesEvent } from "../shared/ui_events.ts";
import { formatNumber, t } from "../i18n/t.ts";

interface Context {
  context_window: number | null;
  input_tokens: number;
  used: number;
  suggest_compress: boolean;
}

const ring = () => document.querySelector<HTMLButtonElement>("[data-context-ring]");
const sessionId = () =>
  document.querySelector<HTMLElement>(".turns-live[data-session-id]")?.dataset.sessionId ||
  new URL(location.href).searchParams.get("session");
/** A token count in short form ("200K"), the locale's way. */
const short = (n: number) => formatNumber(n, { notation: "compact", maximumFractionDigits: 0 });

async function refresh(): Promise<void> {
  const r = ring();
  const sid = sessionId();
  if (!r || !sid) return;
  let c: Context;
  try {
    c = await api<Context>("GET", `/api/session/context?session_id=${encodeURIComponent(sid)}`);
  } catch {
    return;
  }
  r.hidden = !c.context_window || c.input_tokens === 0;
  const pct = Math.round(c.used * 100);
  r.style.setProperty("--used", String(pct));
  r.dataset.filling = c.suggest_compress ? "true" : "false";
  const values = {
    pct: formatNumber(pct / 100, { style: "percent" }),
    used: short(c.input_tokens),
    total: short(c.context_window ?? 0),
  };
  r.title = t(c.suggest_compress ? "composer.contextFilling" : "composer.contextUsed", values);
  r.setAttribute("aria-label", r.title);
}

/** Wire the ring when the page has one (lib/browser/pages/chat_chrome.ts calls it once). */
export function installContextRing(): void {
  const r = ring();
  if (!r) return;
  r.addEventListener("click", () => {
    if (r.dataset.filling !== "true") return;
    const input = document.querySelector<HTMLTextAreaElement>("#composer-input");
    if (!input) return;
    input.focus();
    input.value = "/compress ";
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  void refresh();
  onHermesEvent("hermes:chat-ended", () => void refresh());
}
