// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded by
// lib/browser/pages/control_center.ts when the Control Center first opens (not on page load).
// Control Center › Logs in the browser: the filter form and Refresh re-render the panel from the
// server (the lines are always the server's own, redacted ring).
import { controlLayer, refreshPanel } from "../control_panels.ts";

async function rerender(form?: HTMLFormElement | null): Promise<void> {
  const get = (n: string) => (form?.elements.namedItem(n) as HTMLInputElement | null)?.value ?? "";
  const host = await refreshPanel("logs", { log_level: get("level"), log_q: get("q") });
  const pre = host?.querySelector<HTMLElement>("[data-cc-logs]");
  if (pre) pre.scrollTop = pre.scrollHeight;
}

function init(): void {
  document.addEventListener("submit", (e) => {
    const form = e.target as HTMLFormElement;
    if (form.dataset?.ccForm !== "logs-filter" || !controlLayer()?.contains(form)) return;
    e.preventDefault();
    void rerender(form);
  });
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest<HTMLElement>(
      "[data-cc-action='logs-refresh']",
    );
    if (button && controlLayer()?.contains(button)) {
      void rerender(button.closest("[data-cc-section]")?.querySelector("form"));
    }
  });
}

if (typeof document !== "undefined") init();
