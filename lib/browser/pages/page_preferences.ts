// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// The layout preferences in the live page: when a setting changes (`hermes:settings-changed`,
// from the Control Center or any other save), <html> is repainted exactly as the server paints
// it on load (lib/shared/page_preferences.ts), so hidden controls, orders, density and the
// empty state follow at once and a reload shows the same. Also: a hidden workspace-panel tab
// that was showing hands over to the first shown one, and an empty-state suggestion fills the
// composer.
import { emitHermesEvent, onHermesEvent } from "../../shared/ui_events.ts";
import { type PagePaint, pagePaint, PAINTED_KEYS } from "../../shared/page_preferences.ts";

const ORDER_PREFIXES = ["--composer-order-", "--tab-order-"];

/** Put a paint on <html>: attributes set or removed, the order properties replaced. */
export function applyPaint(root: HTMLElement, paint: PagePaint): void {
  for (const [name, value] of Object.entries(paint.attrs)) {
    if (value === undefined) root.removeAttribute(name);
    else root.setAttribute(name, value);
  }
  for (const prop of [...root.style]) {
    if (ORDER_PREFIXES.some((p) => prop.startsWith(p))) root.style.removeProperty(prop);
  }
  for (const [prop, value] of Object.entries(paint.vars)) root.style.setProperty(prop, value);
}

/** A selected panel tab that is now hidden hands over to the first tab still shown. */
function keepAVisibleTab(): void {
  const tabs = [...document.querySelectorAll<HTMLElement>("[data-panel-tab]")];
  const selected = tabs.find((tab) => tab.getAttribute("aria-selected") === "true");
  const shown = (tab: HTMLElement) => getComputedStyle(tab).display !== "none";
  if (!selected || shown(selected)) return;
  const first = tabs.filter(shown)
    .sort((a, b) => Number(getComputedStyle(a).order) - Number(getComputedStyle(b).order))[0];
  first?.click();
}

/** A suggestion's text into the composer, as if typed (the island hears `input`). */
function fillComposer(text: string): void {
  const box = document.querySelector<HTMLTextAreaElement>(".composer textarea");
  if (!box) return;
  box.value = text;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  box.focus();
  box.setSelectionRange(text.length, text.length);
}

function init(): void {
  onHermesEvent("hermes:settings-changed", ({ changed, settings }) => {
    // The server filters the list: ask the sidebar to fetch it again.
    if (changed.includes("show_cron_sessions")) {
      emitHermesEvent("hermes:sessions-changed", { reason: "settings" });
    }
    if (!changed.some((key) => PAINTED_KEYS.includes(key))) return;
    applyPaint(document.documentElement, pagePaint(settings));
    keepAVisibleTab();
  });
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest?.("[data-suggestion]");
    if (button) fillComposer(button.textContent ?? "");
  });
  // The panel's views mount on first show: hand over only once the panel is open.
  const app = document.querySelector<HTMLElement>(".app");
  if (!app) return;
  const whenOpen = () => app.dataset.workspacePanel === "open" && keepAVisibleTab();
  new MutationObserver(whenOpen).observe(app, { attributeFilter: ["data-workspace-panel"] });
  whenOpen();
}

if (typeof document !== "undefined") init();
