// Browser-safe (lib/browser): imports nothing from Deno or the database. The Providers panel's
// forms, loaded on first use by lib/browser/pages/control_center.ts (a dynamic import keeps it
// out of every page's initial JS): add/edit a provider (POST /api/providers), Test connection
// (POST /api/providers/test, its models listed in place), delete (POST /api/providers/delete),
// the auxiliary model and reasoning effort. After a change the panel is re-rendered by the server.
import { api } from "./api_client.ts";
import { t } from "../i18n/t.ts";
import {
  clearInvalid,
  controlLayer,
  refreshPanel,
  reportError,
  setStatus,
  whileBusy,
} from "./control_panels.ts";

type Fields = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A problem with one field, found before anything is sent. */
class FieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

const hookOf = (form: HTMLFormElement) =>
  form.dataset.pvForm === "add"
    ? "pv-new"
    : `pv-${(form.dataset.provider ?? "").replace(/[^A-Za-z0-9_-]/g, "_")}`;

function field(form: HTMLFormElement, name: string): Fields | null {
  return form.elements.namedItem(name) as Fields | null;
}

function changed(el: Fields | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLSelectElement) return true;
  return el.value !== el.defaultValue;
}

function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const at = line.indexOf(":");
    if (at <= 0) {
      throw new FieldError("headers", t("providers.badHeader", { line: line.trim() }));
    }
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

/**
 * The request body of a form: every filled field of the add form; only the changed fields of
 * an edit form (an untouched masked key is not sent, so the stored key stays).
 */
function bodyOf(form: HTMLFormElement): Record<string, unknown> {
  const adding = form.dataset.pvForm === "add";
  const body: Record<string, unknown> = {};
  if (adding) {
    body.provider = field(form, "provider")!.value;
    const name = field(form, "name")!.value.trim();
    if (body.provider === "custom") {
      if (!name) throw new FieldError("name", t("providers.nameRequired"));
      body.name = name;
    }
  } else body.provider = form.dataset.provider;
  const want = (n: string) =>
    adding ? field(form, n)!.value.trim() !== "" : changed(field(form, n));
  if (want("base_url")) body.base_url = field(form, "base_url")!.value.trim() || null;
  if (want("api_key")) body.api_key = field(form, "api_key")!.value.trim();
  if (want("headers")) body.headers = parseHeaders(field(form, "headers")!.value);
  if (want("models")) body.models = lines(field(form, "models")!.value);
  return body;
}

function invalid(form: HTMLFormElement, err: FieldError): void {
  const input = form.querySelector<HTMLElement>(`[name="${err.field}"]`);
  input?.setAttribute("aria-invalid", "true");
  input?.focus();
  setStatus(form, hookOf(form), err.message, "error");
}

/** Re-render the panel and open the item `id` again (its status line is inside it). */
async function refreshOpen(id: string | null): Promise<Element | null> {
  const host = await refreshPanel("providers");
  if (!host || !id) return host;
  const item = host.querySelector<HTMLElement>(`[data-pv-provider="${CSS.escape(id)}"]`);
  const details = item?.querySelector("details");
  if (details) details.open = true;
  return item ?? host;
}

async function save(form: HTMLFormElement, button: HTMLButtonElement | null): Promise<void> {
  let body: Record<string, unknown>;
  try {
    body = bodyOf(form);
  } catch (err) {
    if (err instanceof FieldError) return invalid(form, err);
    throw err;
  }
  await whileBusy(button, async () => {
    try {
      const res = await api<{ provider: string; created: boolean }>(
        "POST",
        "/api/providers",
        body,
      );
      const scope = await refreshOpen(res.provider);
      const hook = `pv-${res.provider.replace(/[^A-Za-z0-9_-]/g, "_")}`;
      setStatus(scope, hook, res.created ? t("providers.added") : t("control.savedDot"), "success");
    } catch (err) {
      reportError(form, hookOf(form), err);
    }
  });
}

async function test(form: HTMLFormElement, button: HTMLButtonElement): Promise<void> {
  const out = form.querySelector<HTMLElement>("[data-pv-test]");
  let body: Record<string, unknown>;
  try {
    body = bodyOf(form);
  } catch (err) {
    if (err instanceof FieldError) return invalid(form, err);
    throw err;
  }
  if (!out) return;
  await whileBusy(button, async () => {
    out.hidden = false;
    out.dataset.tone = "info";
    out.textContent = t("providers.testing");
    try {
      const res = await api<{ ok: boolean; models?: Array<{ id: string }>; error?: string }>(
        "POST",
        "/api/providers/test",
        body,
      );
      out.replaceChildren();
      const head = document.createElement("p");
      if (!res.ok) {
        out.dataset.tone = "error";
        head.textContent = t("providers.notConnected", { error: res.error ?? "" });
        out.append(head);
        return;
      }
      const models = res.models ?? [];
      out.dataset.tone = "success";
      head.textContent = t("providers.connected", { count: models.length });
      const list = document.createElement("ul");
      list.className = "pv-models";
      for (const m of models.slice(0, 200)) {
        const li = document.createElement("li");
        li.className = "cc-chip";
        li.textContent = m.id;
        list.append(li);
      }
      out.append(head, list);
    } catch (err) {
      out.hidden = true;
      reportError(form, hookOf(form), err);
    }
  });
}

async function remove(button: HTMLButtonElement): Promise<void> {
  const id = button.dataset.name;
  if (!id) return;
  const form = button.closest("form");
  await whileBusy(button, async () => {
    try {
      await api("POST", "/api/providers/delete", { provider: id });
      const host = await refreshPanel("providers");
      setStatus(host, "pv-list", t("providers.removed", { name: id }), "success");
    } catch (err) {
      reportError(form, form ? hookOf(form) : "pv-list", err);
    }
  });
}

async function saveRoles(form: HTMLFormElement, button: HTMLButtonElement | null): Promise<void> {
  const aux = field(form, "auxiliary") as HTMLInputElement;
  const effort = field(form, "reasoning") as HTMLSelectElement;
  const effortChanged = [...effort.options].some((o) => o.selected !== o.defaultSelected);
  if (!changed(aux) && !effortChanged) {
    setStatus(form, "model-roles", t("control.nothingChanged"), "info");
    return;
  }
  await whileBusy(button, async () => {
    try {
      if (changed(aux)) {
        await api("POST", "/api/model/auxiliary", { model: aux.value.trim() || null });
      }
      if (effortChanged) await api("POST", "/api/reasoning", { effort: effort.value || null });
      const host = await refreshPanel("providers");
      setStatus(host, "model-roles", t("control.savedDot"), "success");
    } catch (err) {
      reportError(form, "model-roles", err);
    }
  });
}

function init(): void {
  document.addEventListener("submit", (e) => {
    const form = e.target as HTMLFormElement;
    const kind = form.dataset?.pvForm;
    if (!kind || !controlLayer()?.contains(form)) return;
    e.preventDefault();
    clearInvalid(form);
    const button = (e as SubmitEvent).submitter as HTMLButtonElement | null;
    void (kind === "roles" ? saveRoles(form, button) : save(form, button));
  });
  document.addEventListener("click", (e) => {
    const target = e.target as Element | null;
    if (!target || !controlLayer()?.contains(target)) return;
    const testButton = target.closest<HTMLButtonElement>('button[data-pv-action="test"]');
    const form = testButton?.closest<HTMLFormElement>("form[data-pv-form]");
    if (testButton && form) {
      clearInvalid(form);
      void test(form, testButton);
      return;
    }
    const del = target.closest<HTMLButtonElement>('button[data-cc-action="pv-delete"]');
    if (del) void remove(del);
  });
}

let started = false;

/** Start the panel's handlers (once; they are delegated, so re-rendered panels keep working). */
export function startProvidersPanel(): void {
  if (started || typeof document === "undefined") return;
  started = true;
  init();
  document.documentElement.dataset.providersPanel = "ready";
}
