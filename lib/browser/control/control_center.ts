// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded by the
// small page script lib/browser/pages/control_center.ts when the Control Center is first asked for.
// The Control Center modal in the browser: opened from `[data-action="control-center"]` (the
// sidebar footer) or the `hermes:open-control-center` event, its markup fetched fresh from
// /partials/control-center at every opening. Escape and the scrim close it; focus stays
// inside (the rest of the page is inert, Tab wraps) and returns to the opener. Tabs follow
// the ARIA tabs pattern (arrows, Home, End). This script runs the Conversation, Appearance,
// Preferences, Providers and System panels; lib/browser/control/extensions_panel.ts runs the rest.
import { api, ApiError, whileCredentialsChange } from "../api_client.ts";
import {
  changedFields,
  clearInvalid,
  controlLayer,
  fetchControlFragment,
  localizeTimes,
  refreshPanel,
  reportError,
  setStatus,
  tabStops,
  whileBusy,
} from "../control_panels.ts";
import { emitHermesEvent, onHermesEvent, type ThemePreference } from "../../shared/ui_events.ts";
import { t } from "../../i18n/t.ts";

let opener: HTMLElement | null = null;
let inerted: Element[] = [];
let lastTab = "conversation";
let opening = false;

function dialog(): HTMLElement | null {
  return controlLayer()?.querySelector<HTMLElement>("[data-cc-dialog]") ?? null;
}

function setInert(on: boolean, layer?: HTMLElement): void {
  if (on) {
    inerted = [...document.body.children].filter((el) =>
      el !== layer && !el.hasAttribute("inert") && el.tagName !== "SCRIPT"
    );
    for (const el of inerted) el.setAttribute("inert", "");
  } else {
    for (const el of inerted) el.removeAttribute("inert");
    inerted = [];
  }
}

/** A dialog that only says why the Control Center could not be opened. */
function errorLayer(message: string): HTMLElement {
  const layer = document.createElement("div");
  layer.className = "cc-layer";
  layer.dataset.ccLayer = "";
  layer.innerHTML = `<div class="cc-scrim" data-cc-close></div>
    <div class="cc-dialog cc-dialog-error" role="alertdialog" aria-modal="true"
      aria-labelledby="cc-error-title" tabindex="-1" data-cc-dialog>
      <h2 class="cc-title" id="cc-error-title"></h2>
      <p class="cc-block-desc"></p>
      <div class="cc-actions"><button type="button" class="btn cc-btn" data-cc-close></button></div>
    </div>`;
  layer.querySelector("h2")!.textContent = t("control.openFailed");
  layer.querySelector("p")!.textContent = message;
  layer.querySelector("button")!.textContent = t("common.close");
  return layer;
}

let panelScripts: Promise<unknown> | undefined;

/**
 * The panels' own scripts (extensions, tasks, logs, sharing, standing approvals) load when the
 * Control Center first opens, not with the page: each registers its listeners once, on import.
 */
function loadPanelScripts(): Promise<unknown> {
  return panelScripts ??= Promise.all([
    import("./extensions_panel.ts"),
    import("./tasks_panel.ts"),
    import("./logs_panel.ts"),
    import("./shares_panel.ts"),
    import("./standing_rules_panel.ts"),
    import("./display_panel.ts"),
    import("./transcript_options_panel.ts"),
    import("./layout_panel.ts"),
  ]);
}

/** Fetch the dialog, put it on the page and move focus into it. */
export async function open(from: HTMLElement | null, tab?: string): Promise<void> {
  if (opening) return;
  if (controlLayer() && !controlLayer()!.hidden) {
    if (tab) selectTab(tab, true);
    return;
  }
  opening = true;
  opener = from ?? (document.activeElement as HTMLElement | null);
  from?.setAttribute("aria-busy", "true");
  let layer: HTMLElement;
  try {
    // The panels' scripts are wired before the dialog shows, so no form can submit unhandled.
    const [html] = await Promise.all([
      fetchControlFragment({ tab: tab ?? lastTab }),
      loadPanelScripts(),
    ]);
    const tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    const first = tpl.content.firstElementChild as HTMLElement | null;
    if (!first?.hasAttribute("data-cc-layer")) {
      throw new ApiError(t("control.notControlCenter"), 0, null);
    }
    layer = first;
  } catch (err) {
    layer = errorLayer(err instanceof ApiError ? err.message : String(err));
  } finally {
    from?.removeAttribute("aria-busy");
    opening = false;
  }
  controlLayer()?.remove();
  document.body.append(layer);
  setInert(true, layer);
  document.documentElement.dataset.ccOpen = "";
  layer.hidden = false;
  opener?.setAttribute("aria-expanded", "true");
  document.addEventListener("keydown", onKeydown, true);
  localizeTimes(layer);
  const selected = layer.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
  (selected ?? tabStops(layer)[0] ?? dialog())?.focus();
  if (selected?.dataset.ccTab) panelShown(selected.dataset.ccTab);
}

/** Close the dialog and give focus back to what opened it. */
function close(): void {
  const layer = controlLayer();
  if (!layer) return;
  document.removeEventListener("keydown", onKeydown, true);
  setInert(false);
  delete document.documentElement.dataset.ccOpen;
  layer.remove();
  opener?.setAttribute("aria-expanded", "false");
  if (opener && opener.isConnected) opener.focus();
  opener = null;
}

function tabs(): HTMLElement[] {
  return [...(controlLayer()?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
}

function selectTab(id: string, focus: boolean): void {
  const layer = controlLayer();
  if (!layer) return;
  for (const t of tabs()) {
    const on = t.dataset.ccTab === id;
    t.setAttribute("aria-selected", on ? "true" : "false");
    t.tabIndex = on ? 0 : -1;
    if (on) t.scrollIntoView({ block: "nearest", inline: "nearest" });
    if (on && focus) t.focus();
  }
  for (const p of layer.querySelectorAll<HTMLElement>("[data-cc-panel]")) {
    p.hidden = p.dataset.ccPanel !== id;
  }
  lastTab = id;
  panelShown(id);
}

let modelsLoaded = false;

/** Work a panel needs when it is shown: the model suggestions of Preferences. */
function panelShown(id: string): void {
  if (id === "preferences" && !modelsLoaded) {
    modelsLoaded = true;
    void loadModelOptions();
  }
  // The Providers panel's forms load on first use, outside every page's initial JS.
  if (id === "providers") {
    void import("../providers_panel.ts").then((m) => m.startProvidersPanel());
  }
}

async function loadModelOptions(): Promise<void> {
  try {
    const res = await api<{ groups: Array<{ provider: string; models: Array<{ id: string }> }> }>(
      "GET",
      "/api/models",
    );
    const list = controlLayer()?.querySelector<HTMLDataListElement>("#cc-model-options");
    if (!list) return;
    list.replaceChildren(
      ...res.groups.flatMap((g) =>
        g.models.map((m) => {
          const o = document.createElement("option");
          o.value = m.id;
          o.label = g.provider;
          return o;
        })
      ),
    );
  } catch {
    modelsLoaded = false; // suggestions only: the field still takes any id
  }
}

function onKeydown(e: KeyboardEvent): void {
  const layer = controlLayer();
  if (!layer) return;
  if (e.key === "Escape") {
    e.preventDefault();
    e.stopPropagation();
    close();
    return;
  }
  if (e.key === "Tab") {
    const d = dialog();
    if (!d) return;
    const items = tabStops(d);
    if (items.length === 0) {
      e.preventDefault();
      d.focus();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement as HTMLElement | null;
    const inside = active && d.contains(active);
    if (e.shiftKey && (!inside || active === first || active === d)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (!inside || active === last)) {
      e.preventDefault();
      first.focus();
    }
    return;
  }
  const tab = (e.target as HTMLElement).closest<HTMLElement>('[role="tab"]');
  if (tab) {
    const all = tabs();
    const i = all.indexOf(tab);
    const next = e.key === "ArrowDown" || e.key === "ArrowRight"
      ? all[(i + 1) % all.length]
      : e.key === "ArrowUp" || e.key === "ArrowLeft"
      ? all[(i - 1 + all.length) % all.length]
      : e.key === "Home"
      ? all[0]
      : e.key === "End"
      ? all[all.length - 1]
      : null;
    if (next?.dataset.ccTab) {
      e.preventDefault();
      selectTab(next.dataset.ccTab, true);
    }
  }
}

/* Actions ----------------------------------------------------------------------------- */

async function saveSettings(
  patch: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const settings = await api<Record<string, unknown>>("POST", "/api/settings", patch);
  emitHermesEvent("hermes:settings-changed", { changed: Object.keys(patch), settings });
  return settings;
}

async function submitPreferences(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const changed = changedFields(form);
  if (changed.size === 0) {
    setStatus(form, "preferences", t("control.nothingChanged"), "info");
    return;
  }
  const patch: Record<string, unknown> = {};
  let defaultModel: string | null = null;
  for (const [name, value] of changed) {
    if (name === "approval_timeout_seconds") {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 10 || n > 86_400) {
        const input = form.elements.namedItem(name) as HTMLInputElement;
        input.setAttribute("aria-invalid", "true");
        input.focus();
        setStatus(form, "preferences", t("control.approvalTimeoutInvalid"), "error");
        return;
      }
      patch[name] = n;
    } else if (name === "default_model") {
      // The default model lives in the config file, not the settings (POST /api/default-model).
      if (value.trim() !== "") defaultModel = value.trim();
    } else if (name === "default_workspace") {
      patch[name] = value.trim() === "" ? null : value.trim();
    } else patch[name] = value;
  }
  await whileBusy(button, async () => {
    try {
      if (defaultModel) await api("POST", "/api/default-model", { model: defaultModel });
      await saveSettings(patch);
      const host = await refreshPanel("preferences");
      modelsLoaded = false;
      panelShown("preferences");
      setStatus(host, "preferences", t("control.savedDot"), "success");
    } catch (err) {
      reportError(form, "preferences", err);
    }
  });
}

async function submitKeys(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const keys: Record<string, string> = {};
  for (const input of form.querySelectorAll<HTMLInputElement>("input[name]")) {
    if (input.value.trim()) keys[input.name] = input.value.trim();
  }
  if (Object.keys(keys).length === 0) {
    setStatus(form, "keys", t("providers.pasteKeyFirst"), "info");
    return;
  }
  await whileBusy(button, async () => {
    try {
      await saveSettings({ provider_keys: keys });
      const host = await refreshPanel("providers");
      setStatus(host, "keys", t("providers.keysSaved"), "success");
    } catch (err) {
      reportError(form, "keys", err);
    }
  });
}

async function removeKey(button: HTMLButtonElement) {
  const provider = button.dataset.provider;
  if (!provider) return;
  await whileBusy(button, async () => {
    try {
      await saveSettings({ provider_keys: { [provider]: "" } });
      const host = await refreshPanel("providers");
      setStatus(host, "keys", t("providers.keyRemoved"), "success");
    } catch (err) {
      reportError(button.closest("form"), "keys", err);
    }
  });
}

async function submitPassword(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const password = (form.elements.namedItem("password") as HTMLInputElement).value;
  const confirm = (form.elements.namedItem("confirm") as HTMLInputElement).value;
  const fail = (name: string, text: string) => {
    const input = form.elements.namedItem(name) as HTMLInputElement;
    input.setAttribute("aria-invalid", "true");
    input.focus();
    setStatus(form, "password", text, "error");
  };
  if (password.length < 8) return fail("password", t("control.passwordTooShort"));
  if (password !== confirm) return fail("confirm", t("control.passwordsDiffer"));
  await whileBusy(button, async () => {
    try {
      // Background polls are held across the change (and until the reload) so none crosses it.
      await whileCredentialsChange(() => saveSettings({ password }), { keepHeld: true });
      // The login cookie (and with it the page's CSRF token) was renewed: reload to pick it up.
      setStatus(form, "password", t("control.passwordSet"), "success");
      setTimeout(() => location.reload(), 400);
    } catch (err) {
      reportError(form, "password", err);
    }
  });
}

async function clearPassword(button: HTMLButtonElement) {
  await whileBusy(button, async () => {
    try {
      await whileCredentialsChange(() => saveSettings({ clear_password: true }), {
        keepHeld: true,
      });
      setStatus(
        button.closest("[data-cc-block]"),
        "password",
        t("control.passwordRemoved"),
        "success",
      );
      setTimeout(() => location.reload(), 400);
    } catch (err) {
      reportError(button.closest("[data-cc-block]"), "password", err);
    }
  });
}

async function clearSession(button: HTMLButtonElement) {
  const id = button.dataset.sessionId;
  if (!id) return;
  const block = button.closest("[data-cc-block]");
  await whileBusy(button, async () => {
    try {
      await api("POST", "/api/session/clear", { session_id: id });
      emitHermesEvent("hermes:sessions-changed", { session_id: id, reason: "cleared" });
      location.assign(`/?session=${encodeURIComponent(id)}`);
    } catch (err) {
      reportError(block, "clear", err);
    }
  });
}

async function importFile(input: HTMLInputElement) {
  const file = input.files?.[0];
  const block = input.closest("[data-cc-block]");
  if (!file) return;
  let body: unknown;
  try {
    body = JSON.parse(await file.text());
  } catch {
    setStatus(block, "import", t("control.importNotJson", { name: file.name }), "error");
    input.value = "";
    return;
  }
  if (
    !body || typeof body !== "object" || !Array.isArray((body as { messages?: unknown }).messages)
  ) {
    setStatus(block, "import", t("control.importNoMessages", { name: file.name }), "error");
    input.value = "";
    return;
  }
  setStatus(block, "import", t("control.importing", { name: file.name }), "info");
  try {
    const res = await api<{ session: { session_id: string } }>("POST", "/api/session/import", body);
    emitHermesEvent("hermes:sessions-changed", {
      session_id: res.session.session_id,
      reason: "imported",
    });
    location.assign(`/?session=${encodeURIComponent(res.session.session_id)}`);
  } catch (err) {
    reportError(block, "import", err);
    input.value = "";
  }
}

async function toggleShowThinking(input: HTMLInputElement) {
  const block = input.closest("[data-cc-block]");
  try {
    await saveSettings({ show_thinking: input.checked });
    setStatus(
      block,
      "appearance",
      input.checked ? t("control.thinkingShown") : t("control.thinkingHidden"),
      "success",
    );
  } catch (err) {
    input.checked = !input.checked;
    reportError(block, "appearance", err);
  }
}

/**
 * Save the `language` preference, then reload: pages are rendered in their language on the
 * server. A failed save puts the picker back on what is stored.
 */
async function saveLanguage(select: HTMLSelectElement) {
  const block = select.closest("[data-cc-block]");
  const stored = [...select.options].find((o) => o.defaultSelected)?.value ?? "auto";
  await whileBusy(select, async () => {
    try {
      await saveSettings({ language: select.value });
      setStatus(block, "language", t("control.languageSaved"), "success");
      location.reload();
    } catch (err) {
      select.value = stored;
      reportError(block, "language", err);
    }
  });
}

/* Wiring ------------------------------------------------------------------------------ */

function init(): void {
  document.addEventListener("click", (e) => {
    const target = e.target as Element | null;
    const layer = controlLayer();
    if (!layer || !target || !layer.contains(target)) return;
    if (target.closest("[data-cc-close]")) {
      close();
      return;
    }
    const tab = target.closest<HTMLElement>('[role="tab"]');
    if (tab?.dataset.ccTab) {
      selectTab(tab.dataset.ccTab, true);
      return;
    }
    const ask = target.closest<HTMLElement>("[data-cc-ask]");
    if (ask) {
      const confirm = ask.parentElement?.querySelector<HTMLElement>(".cc-confirm");
      if (confirm) {
        ask.hidden = true;
        confirm.hidden = false;
        confirm.querySelector<HTMLElement>("[data-cc-cancel]")?.focus();
      }
      return;
    }
    const cancel = target.closest<HTMLElement>("[data-cc-cancel]");
    if (cancel) {
      const box = cancel.closest<HTMLElement>(".cc-confirmable");
      const askBtn = box?.querySelector<HTMLElement>("[data-cc-ask]");
      cancel.closest<HTMLElement>(".cc-confirm")!.hidden = true;
      if (askBtn) {
        askBtn.hidden = false;
        askBtn.focus();
      }
      return;
    }
    const action = target.closest<HTMLButtonElement>("button[data-cc-action]");
    switch (action?.dataset.ccAction) {
      case "clear-session":
        void clearSession(action);
        break;
      case "remove-key":
        void removeKey(action);
        break;
      case "password-clear":
        void clearPassword(action);
        break;
    }
  });

  document.addEventListener("submit", (e) => {
    const form = e.target as HTMLFormElement;
    if (!controlLayer()?.contains(form)) return;
    const kind = form.dataset.ccForm;
    const button = (e as SubmitEvent).submitter as HTMLButtonElement | null;
    const handlers: Record<string, (f: HTMLFormElement, b: HTMLButtonElement | null) => unknown> = {
      preferences: submitPreferences,
      keys: submitKeys,
      password: submitPassword,
    };
    if (!kind || !handlers[kind]) return;
    e.preventDefault();
    clearInvalid(form);
    void handlers[kind](form, button);
  });

  document.addEventListener("change", (e) => {
    const el = e.target as HTMLInputElement;
    if (!controlLayer()?.contains(el)) return;
    if (el.name === "theme" && el.closest("[data-cc-theme]")) {
      emitHermesEvent("hermes:theme-change", { theme: el.value as ThemePreference });
    } else if (el.dataset.ccSetting === "show_thinking") {
      void toggleShowThinking(el);
    } else if (el instanceof HTMLSelectElement && el.dataset.ccSetting === "language") {
      void saveLanguage(el);
    } else if (el.matches("[data-cc-import]")) {
      void importFile(el);
    }
  });

  document.addEventListener("input", (e) => {
    const el = e.target as HTMLElement;
    if (el.getAttribute("aria-invalid") && controlLayer()?.contains(el)) {
      el.removeAttribute("aria-invalid");
    }
  });

  onHermesEvent("hermes:theme-change", ({ theme }) => {
    const radio = controlLayer()?.querySelector<HTMLInputElement>(
      `[data-cc-theme] input[value="${theme}"]`,
    );
    if (radio) radio.checked = true;
  });
}

if (typeof document !== "undefined") init();
