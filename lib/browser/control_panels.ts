// Browser-safe: imports nothing from Deno or the database.
// What the Control Center's page scripts (lib/browser/pages/control_center.ts, extensions_panel.ts)
// share: fetching the dialog or one panel as server-rendered HTML (/partials/control-center),
// swapping a panel in place, reporting in a panel's status line — the server's sentence on
// failure, with the field it names marked invalid and focused — and small DOM helpers (the
// focus trap's tab stops, a form's changed fields, times in the reader's zone).
import { ApiError } from "./api_client.ts";
import { formatDate, t } from "../i18n/t.ts";

export const CONTROL_PARTIAL = "/partials/control-center";

/** The open (or opening) Control Center layer, if any. */
export function controlLayer(): HTMLElement | null {
  return document.querySelector<HTMLElement>("[data-cc-layer]");
}

/** The conversation the page shows: `?session=` first, else the transcript's own id. */
export function currentSessionId(): string | null {
  const fromUrl = new URLSearchParams(location.search).get("session");
  if (fromUrl) return fromUrl;
  return document.querySelector<HTMLElement>(".transcript[data-session-id]")?.dataset.sessionId ??
    null;
}

/** GET a fragment of the Control Center; throws an ApiError with a readable sentence. */
export async function fetchControlFragment(params: Record<string, string>): Promise<string> {
  const query = new URLSearchParams(params);
  const sid = currentSessionId();
  if (sid && !query.has("session")) query.set("session", sid);
  let res: Response;
  try {
    res = await fetch(`${CONTROL_PARTIAL}?${query}`, {
      credentials: "same-origin",
      headers: { accept: "text/html" },
    });
  } catch {
    throw new ApiError(t("control.unreachable"), 0, null);
  }
  if (res.redirected && new URL(res.url).pathname === "/login") {
    // The login expired: reloading the page leads to the sign-in form and back here.
    location.reload();
    throw new ApiError(t("control.sessionExpired"), 401, null);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = t("control.loadFailed", { status: res.status });
    try {
      const body = JSON.parse(text) as { error?: unknown };
      if (typeof body.error === "string") message = body.error;
    } catch { /* not JSON */ }
    throw new ApiError(message, res.status, null);
  }
  return text;
}

/**
 * Re-render one panel (`section` = tab id) from the server and swap it in. `extra` opens a
 * form (`{mcp: "name"}`, `{skill: ""}`). Returns the panel body, or null when closed.
 */
export async function refreshPanel(
  section: string,
  extra: Record<string, string> = {},
): Promise<HTMLElement | null> {
  const html = await fetchControlFragment({ section, ...extra });
  const host = controlLayer()?.querySelector<HTMLElement>(`[data-cc-section="${section}"]`);
  if (!host) return null;
  host.innerHTML = html;
  return host;
}

export type StatusTone = "success" | "error" | "info";

const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();

/**
 * Write `text` into the status line `hook` inside `scope` (or the nearest one). Success
 * messages fade after a few seconds; errors stay until the next action.
 */
export function setStatus(
  scope: Element | null | undefined,
  hook: string,
  text: string,
  tone: StatusTone = "info",
): void {
  const el = scope?.querySelector<HTMLElement>(`[data-cc-status="${hook}"]`) ??
    controlLayer()?.querySelector<HTMLElement>(`[data-cc-status="${hook}"]`);
  if (!el) return;
  el.textContent = text;
  el.dataset.tone = tone;
  clearTimeout(timers.get(el));
  if (tone === "success" && text) {
    timers.set(el, setTimeout(() => (el.textContent = ""), 4000));
  }
}

/** Report a failed call: its sentence in the status line, the field it names marked invalid. */
export function reportError(scope: Element | null | undefined, hook: string, err: unknown): void {
  const message = err instanceof ApiError ? err.message : String(err);
  setStatus(scope, hook, message, "error");
  const field = err instanceof ApiError
    ? (err.body as { field?: unknown } | null)?.field
    : undefined;
  if (typeof field === "string" && scope) {
    const input = scope.querySelector<HTMLElement>(`[name="${CSS.escape(field)}"]`);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  }
}

/** Clear the invalid marks of a form before it is sent again. */
export function clearInvalid(form: Element): void {
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

/** Disable a button while `fn` runs (no double submits), restoring it afterwards. */
export async function whileBusy<T>(
  button: HTMLButtonElement | HTMLInputElement | HTMLSelectElement | null | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  if (!button) return await fn();
  const was = button.disabled;
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    return await fn();
  } finally {
    button.disabled = was;
    button.removeAttribute("aria-busy");
  }
}

/** Focus the element a freshly rendered panel asks for (`data-cc-autofocus`), if any. */
export function focusAutofocus(host: Element | null): void {
  const el = host?.querySelector<HTMLElement>("[data-cc-autofocus]");
  if (el) el.focus();
}

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type=hidden])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "summary",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/** The controls of `root` that Tab can reach now, in document order (the focus trap's ring). */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => {
    if (el.getClientRects().length === 0 || el.closest("[hidden]")) return false;
    // A radio group is one tab stop: its checked radio (or the first when none is).
    if (el instanceof HTMLInputElement && el.type === "radio" && !el.checked && el.name) {
      const group = root.querySelectorAll<HTMLInputElement>(
        `input[type=radio][name="${CSS.escape(el.name)}"]`,
      );
      return ![...group].some((r) => r.checked) && group[0] === el;
    }
    return true;
  });
}

/** The named controls of `form` whose value differs from what the server rendered. */
export function changedFields(form: HTMLFormElement): Map<string, string> {
  const out = new Map<string, string>();
  for (const el of form.elements) {
    if (el instanceof HTMLSelectElement) {
      const initial = [...el.options].find((o) => o.defaultSelected)?.value ?? el.options[0]?.value;
      if (el.name && el.value !== initial) out.set(el.name, el.value);
    } else if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (el.name && el.value !== el.defaultValue) out.set(el.name, el.value);
    }
  }
  return out;
}

/** Times rendered in UTC by the server, shown in the reader's own zone. */
export function localizeTimes(root: Element): void {
  for (const time of root.querySelectorAll<HTMLTimeElement>("time[data-cc-localtime]")) {
    const d = new Date(time.dateTime);
    if (!Number.isNaN(d.getTime())) {
      time.textContent = formatDate(d, { dateStyle: "medium", timeStyle: "short" });
    }
  }
}
