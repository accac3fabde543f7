// Browser-safe: imports nothing from Deno or the database.
// What Control Center › Profiles and › Prompts do, loaded on first use by
// lib/browser/pages/agent_panels.ts: create, edit, switch and delete profiles (/api/profile/*),
// save and delete saved prompts (/api/prompts*). After each change the server renders the panel
// again and it is swapped in; a failure shows the server's sentence in the panel's status line.
import { api } from "./api_client.ts";
import { emitHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";
import {
  focusAutofocus,
  refreshPanel,
  reportError,
  setStatus,
  whileBusy,
} from "./control_panels.ts";

type Panel = "profiles" | "prompts";

async function rerender(
  panel: Panel,
  extra: Record<string, string> = {},
  message?: string,
): Promise<void> {
  const host = await refreshPanel(panel, extra);
  if (!host) return;
  if (host.querySelector("[data-cc-autofocus]")) focusAutofocus(host);
  if (message) setStatus(host, panel, message, "success");
}

const field = (form: HTMLFormElement, name: string) =>
  ((form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null)?.value ?? "")
    .trim();

function invalid(form: HTMLFormElement, name: string, hook: string, text: string): void {
  const input = form.querySelector<HTMLElement>(`[name="${name}"]`);
  input?.setAttribute("aria-invalid", "true");
  input?.focus();
  setStatus(form, hook, text, "error");
}

export async function saveProfile(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const existing = form.dataset.profile ?? "";
  const name = existing || field(form, "name");
  if (!name) return invalid(form, "name", "profile-form", t("extensions.profileNeedsName"));
  const body = {
    name,
    model: field(form, "model") || null,
    provider: field(form, "provider") || null,
    personality: field(form, "personality") || null,
    workspace: field(form, "workspace") || null,
  };
  await whileBusy(button, async () => {
    try {
      await api("POST", existing ? "/api/profile/update" : "/api/profile/create", body);
      await rerender("profiles", {}, t("extensions.saved", { name }));
    } catch (err) {
      reportError(form, "profile-form", err);
    }
  });
}

export async function savePrompt(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const name = field(form, "name");
  const content = (form.elements.namedItem("content") as HTMLTextAreaElement).value;
  if (!name) return invalid(form, "name", "prompt-form", t("extensions.promptNeedsName"));
  if (!content.trim()) {
    return invalid(form, "content", "prompt-form", t("extensions.promptNeedsText"));
  }
  await whileBusy(button, async () => {
    try {
      await api("POST", "/api/prompts", { name, content });
      await rerender("prompts", {}, t("extensions.saved", { name }));
    } catch (err) {
      reportError(form, "prompt-form", err);
    }
  });
}

async function run(button: HTMLButtonElement, action: string, name: string): Promise<void> {
  switch (action) {
    case "profile-new":
      return await rerender("profiles", { profile: "" });
    case "profile-edit":
      return await rerender("profiles", { profile: name });
    case "profile-cancel":
      return await rerender("profiles");
    case "profile-switch":
      await api("POST", "/api/profile/switch", { name });
      emitHermesEvent("hermes:profile-changed", { name });
      return await rerender("profiles", {}, t("extensions.profileSwitched", { name }));
    case "profile-delete": {
      const sessions = button.dataset.sessions;
      const res = await api<{ moved: number; deleted: number }>("POST", "/api/profile/delete", {
        name,
        ...(sessions ? { sessions } : {}),
      });
      if (res.moved || res.deleted) emitHermesEvent("hermes:sessions-changed", {});
      const text = res.moved
        ? t("extensions.profileDeletedMoved", { name, count: res.moved })
        : res.deleted
        ? t("extensions.profileDeletedChats", { name, count: res.deleted })
        : t("extensions.deleted", { name });
      return await rerender("profiles", {}, text);
    }
    case "prompt-new":
      return await rerender("prompts", { prompt: "" });
    case "prompt-edit":
      return await rerender("prompts", { prompt: name });
    case "prompt-cancel":
      return await rerender("prompts");
    case "prompt-delete":
      await api("POST", "/api/prompts/delete", { name });
      return await rerender("prompts", {}, t("extensions.deleted", { name }));
  }
}

/** A button of either panel (`profile-*`, `prompt-*`). */
export async function panelAction(button: HTMLButtonElement, action: string): Promise<void> {
  const panel: Panel = action.startsWith("profile-") ? "profiles" : "prompts";
  const form = button.closest("form");
  await whileBusy(button, async () => {
    try {
      await run(button, action, button.dataset.name ?? "");
    } catch (err) {
      reportError(
        form ?? button.closest("[data-cc-section]"),
        form ? (panel === "profiles" ? "profile-form" : "prompt-form") : panel,
        err,
      );
    }
  });
}
