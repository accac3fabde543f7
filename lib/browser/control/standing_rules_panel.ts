// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded by
// lib/browser/pages/control_center.ts when the Control Center first opens (not on page load).
// The Control Center's Standing approvals tab (components/control/StandingRulesPanel.tsx):
// Remove ends one rule at once (POST /api/approval/rules/remove) and re-renders the tab. One
// click, no confirmation: removing only makes the console ask again. Focus moves to the rule
// that took the removed one's place (else the one before, else the empty list's note), so a
// keyboard user keeps their place.
import { api } from "../api_client.ts";
import { t } from "../../i18n/t.ts";
import {
  controlLayer,
  localizeTimes,
  refreshPanel,
  reportError,
  setStatus,
  whileBusy,
} from "../control_panels.ts";

async function remove(button: HTMLButtonElement): Promise<void> {
  const id = button.dataset.ruleId;
  if (!id) return;
  const row = button.closest<HTMLElement>("[data-rule-id]");
  const rows = [...(row?.parentElement?.querySelectorAll<HTMLElement>("[data-rule-id]") ?? [])];
  const index = row ? rows.indexOf(row) : -1;
  try {
    await whileBusy(button, () => api("POST", "/api/approval/rules/remove", { id }));
  } catch (err) {
    reportError(button.closest("[data-cc-block]"), "rules", err);
    return;
  }
  const host = await refreshPanel("rules").catch((err) => {
    reportError(button.closest("[data-cc-block]"), "rules", err);
    return null;
  });
  if (!host) return;
  localizeTimes(host);
  const left = [...host.querySelectorAll<HTMLElement>("[data-cc-action='rule-remove']")];
  const next = left[Math.min(Math.max(index, 0), left.length - 1)] ??
    host.querySelector<HTMLElement>("[data-cc-empty='rules']");
  next?.focus();
  setStatus(
    host,
    "rules",
    t("approval_rules.removed", { rule: `\u2068${button.dataset.ruleName ?? ""}\u2069` }),
    "success",
  );
}

function init(): void {
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest<HTMLButtonElement>(
      "button[data-cc-action='rule-remove']",
    );
    if (!button || !controlLayer()?.contains(button)) return;
    void remove(button);
  });
}

if (typeof document !== "undefined") init();
