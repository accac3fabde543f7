// Browser-safe: imports nothing from Deno or the database.
// The context ring in the top bar: the share of the model's window the chat's last request
// used (GET /api/session/context), re-read when a run ends. As it fills it turns amber and a
// click offers compression (puts `/compress ` in the composer, ready for an optional focus).
import { api } from "./api_client.ts";
import { onHermesEvent } from "../shared/ui_events.ts";

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
const k = (n: number) => n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);

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
  const line = `${pct}% of the context window used (${k(c.input_tokens)} of ${
    k(c.context_window ?? 0)
  } tokens)`;
  r.title = c.suggest_compress ? `${line}. Click to compress older turns.` : line;
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
