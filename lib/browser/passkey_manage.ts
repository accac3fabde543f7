// Browser-safe (lib/browser): imports nothing from Deno or the database.
// Registering and removing passkeys from the Control Center's System tab; loaded on demand by
// lib/browser/pages/passkeys.ts. The server makes and checks the challenge; this only hands
// it to the authenticator (navigator.credentials.create via @simplewebauthn/browser).
import { startRegistration } from "@simplewebauthn/browser";
import { api } from "./api_client.ts";
import { t } from "../i18n/t.ts";
import { refreshPanel, reportError, setStatus, whileBusy } from "./control_panels.ts";

/** Run a registration ceremony from the panel's form, then show the refreshed list. */
export async function addPasskey(form: HTMLFormElement): Promise<void> {
  const button = form.querySelector<HTMLButtonElement>("button[data-passkey-add]");
  const name = (new FormData(form).get("name") ?? "").toString().trim();
  const scope = form.closest("[data-cc-block]") ?? form;
  try {
    await whileBusy(button, async () => {
      setStatus(scope, "passkeys", t("control.passkeyWaiting"));
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
        "POST",
        "/api/auth/passkey/register/options",
        {},
      );
      const response = await startRegistration({ optionsJSON });
      await api("POST", "/api/auth/passkey/register", { name: name || undefined, response });
    });
    const host = await refreshPanel("system");
    setStatus(
      host?.querySelector("[data-cc-block=passkeys]"),
      "passkeys",
      t("control.passkeyAdded"),
      "success",
    );
  } catch (err) {
    const cancelled = (err as Error).name === "NotAllowedError";
    if (cancelled) setStatus(scope, "passkeys", t("control.passkeyCancelled"), "info");
    else reportError(scope, "passkeys", err);
  }
}

/** Forget one passkey (the confirm step already ran), then show the refreshed list. */
export async function removePasskey(button: HTMLButtonElement): Promise<void> {
  const scope = button.closest("[data-cc-block]");
  try {
    await whileBusy(
      button,
      () => api("POST", "/api/auth/passkey/delete", { id: button.dataset.passkeyId }),
    );
    const host = await refreshPanel("system");
    setStatus(
      host?.querySelector("[data-cc-block=passkeys]"),
      "passkeys",
      t("control.passkeyRemoved"),
      "success",
    );
  } catch (err) {
    reportError(scope, "passkeys", err);
  }
}
