// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// The Control Center's opener: a click on `[data-action="control-center"]` or the
// `hermes:open-control-center` event loads the Control Center itself
// (lib/browser/control/control_center.ts) on first use and opens it, so a page that never opens
// it never downloads it.
import { onHermesEvent } from "../../shared/ui_events.ts";

const center = () => import("../control/control_center.ts");

function init(): void {
  document.addEventListener("click", (e) => {
    const trigger = (e.target as Element | null)?.closest<HTMLElement>(
      '[data-action="control-center"]',
    );
    if (!trigger) return;
    e.preventDefault();
    void center().then((m) => m.open(trigger, trigger.dataset.tab));
  });
  onHermesEvent("hermes:open-control-center", ({ tab }) => {
    void center().then((m) => m.open(null, tab));
  });
}

if (typeof document !== "undefined") init();
