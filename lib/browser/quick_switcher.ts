// Browser-safe: imports nothing from Deno or the database.
// The quick switcher (Ctrl/Cmd+K): a dialog listing chats by title, filtered fuzzily as you
// type (letters in order, earlier and tighter matches first); Enter opens the highlighted one,
// arrows move, Esc closes. Loaded on first use. Titles go in as text, never markup.
import { api } from "./api_client.ts";
import { el } from "./ui_menu.ts";
import { t } from "../i18n/t.ts";

interface Row {
  session_id: string;
  title: string;
}

/** A fuzzy score of `query` in `text` (lower is better), or null when it does not match. */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, "");
  const t = text.toLowerCase();
  if (!q) return 0;
  let at = -1;
  let first = -1;
  let gaps = 0;
  for (const ch of q) {
    const next = t.indexOf(ch, at + 1);
    if (next < 0) return null;
    if (first < 0) first = next;
    else gaps += next - at - 1;
    at = next;
  }
  return first + gaps * 2 + (t.includes(query.toLowerCase().trim()) ? -100 : 0);
}

/** `rows` matching `query`, best first (ties keep the list's recency order), at most `limit`. */
export function rankSessions(rows: Row[], query: string, limit = 50): Row[] {
  return rows.map((r, i) => ({ r, i, s: fuzzyScore(query, r.title) }))
    .filter((x) => x.s !== null)
    .sort((a, b) => a.s! - b.s! || a.i - b.i)
    .slice(0, limit).map((x) => x.r);
}

let dialog: HTMLDialogElement | null = null;

/** Open the switcher (or focus it when open). */
export async function openQuickSwitcher(): Promise<void> {
  if (dialog?.open) return dialog.querySelector("input")?.focus();
  const input = el("input", {
    type: "search",
    class: "quick-switcher-input",
    placeholder: t("sidebar.jumpPlaceholder"),
    "aria-label": t("sidebar.jumpLabel"),
    autocomplete: "off",
  });
  const list = el("ul", {
    class: "quick-switcher-list",
    role: "listbox",
    "aria-label": t("sidebar.quickSwitcher"),
  });
  const d = el(
    "dialog",
    {
      class: "dialog quick-switcher",
      "aria-label": t("sidebar.quickSwitcher"),
      "data-quick-switcher": true,
    },
    input,
    list,
  );
  dialog = d;
  document.body.append(d);
  d.addEventListener("close", () => d.remove());
  d.addEventListener("click", (e) => e.target === d && d.close());
  d.showModal();
  let rows: Row[] = [];
  let shown: Row[] = [];
  let active = 0;
  const go = (r: Row | undefined) => {
    if (r) location.href = `/?session=${encodeURIComponent(r.session_id)}`;
  };
  const draw = () => {
    shown = rankSessions(rows, input.value);
    active = Math.min(active, Math.max(0, shown.length - 1));
    list.replaceChildren(
      ...shown.map((r, i) => {
        const li = el("li", {
          class: "quick-switcher-item",
          role: "option",
          "aria-selected": i === active ? "true" : "false",
          "data-session-id": r.session_id,
        }, r.title);
        li.addEventListener("click", () => go(r));
        return li;
      }),
    );
    if (!shown.length) {
      list.append(el("li", { class: "quick-switcher-empty" }, t("sidebar.noChatMatches")));
    }
    list.querySelector("[aria-selected='true']")?.scrollIntoView({ block: "nearest" });
  };
  input.addEventListener("input", () => (active = 0, draw()));
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = shown.length || 1;
      active = (active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      draw();
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(shown[active]);
    }
  });
  input.focus();
  const res = await api<{ sessions: Row[] }>("GET", "/api/sessions?limit=500");
  rows = res.sessions;
  draw();
}
