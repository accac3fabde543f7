// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded by
// lib/browser/pages/control_center.ts when the Control Center first opens (not on page load).
// The Control Center's Sharing tab (components/control/SharesPanel.tsx): Copy link puts the
// link's full address on the clipboard; a confirmed Revoke ends the link and re-renders the tab.
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

async function copy(button: HTMLButtonElement): Promise<void> {
  const address = new URL(button.dataset.url ?? "/", location.origin).href;
  try {
    await navigator.clipboard.writeText(address);
    setStatus(button.closest("[data-cc-block]"), "shares", t("control.linkCopied"), "success");
  } catch {
    setStatus(
      button.closest("[data-cc-block]"),
      "shares",
      t("control.copyThisLink", { address }),
      "info",
    );
  }
}

async function revoke(button: HTMLButtonElement): Promise<void> {
  const scope = button.closest("[data-cc-block]");
  try {
    await whileBusy(
      button,
      () => api("POST", "/api/share/revoke", { token: button.dataset.token }),
    );
    const host = await refreshPanel("sharing");
    if (host) localizeTimes(host);
    setStatus(host, "shares", t("control.linkRevoked"), "success");
  } catch (err) {
    reportError(scope, "shares", err);
  }
}

function init(): void {
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest<HTMLButtonElement>(
      "button[data-cc-action]",
    );
    if (!button || !controlLayer()?.contains(button)) return;
    if (button.dataset.ccAction === "share-copy") void copy(button);
    else if (button.dataset.ccAction === "share-revoke") void revoke(button);
  });
}

if (typeof document !== "undefined") init();
