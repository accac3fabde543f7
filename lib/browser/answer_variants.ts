// Browser-safe: imports nothing from Deno or the database.
// The ‹ n/m › switcher of the last turn's answer, filled from GET /api/session/variant when the
// page loads and again as each run here ends (a Regenerate leaves the old answer a variant). It is
// all of the message actions a reader needs before touching anything, so it loads with the
// transcript; what the buttons do (lib/browser/message_actions.ts) loads on the first interaction.
// Invariant: the switcher sits on the row of the turn the server names, never on an earlier one.
import { api } from "./api_client.ts";
import { t } from "../i18n/t.ts";
import { onHermesEvent } from "../shared/ui_events.ts";

/**
 * Fill the switcher. Found by the turn id the server names: while a regenerated answer streams,
 * the last answer row on the page is the previous turn's, and the switcher belongs to the one
 * being written (filled once it ends).
 */
export async function showVariants(sessionId: string): Promise<void> {
  const v = await api<{ turn_id: string | null; count: number; current: number }>(
    "GET",
    `/api/session/variant?session_id=${encodeURIComponent(sessionId)}`,
  ).catch(() => null);
  const rows = [...document.querySelectorAll<HTMLElement>(".msg-actions-answer")];
  const row = v?.turn_id ? rows.findLast((r) => r.dataset.turnId === v.turn_id) : rows.at(-1);
  for (const other of rows) {
    const stale = other !== row && other.querySelector<HTMLElement>(".msg-variants");
    if (stale) stale.hidden = true;
  }
  const slot = row?.querySelector<HTMLElement>(".msg-variants");
  if (!v || v.count < 2 || !slot) return;
  slot.hidden = false;
  slot.innerHTML = "";
  const btn = (label: string, to: number, nameKey: string) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "msg-action msg-variant-step";
    b.dataset.action = "variant";
    b.dataset.variant = String(to);
    b.textContent = label;
    b.setAttribute("aria-label", t(nameKey));
    b.disabled = to < 1 || to > v.count;
    return b;
  };
  const count = document.createElement("span");
  count.className = "msg-variant-count";
  count.textContent = `${v.current}/${v.count}`;
  slot.append(
    btn("‹", v.current - 1, "transcript.previousAnswer"),
    count,
    btn("›", v.current + 1, "transcript.nextAnswer"),
  );
}

/** Fill the switcher now and after each run of `sessionId` ends; returns the uninstaller. */
export function installAnswerVariants(sessionId: string): () => void {
  const off = onHermesEvent("hermes:run-state", (d) => {
    // The finished turn's answer row is rendered by then: it may be the one with variants.
    if (d.session_id === sessionId && !d.active) {
      requestAnimationFrame(() => void showVariants(sessionId));
    }
  });
  void showVariants(sessionId);
  return off;
}
