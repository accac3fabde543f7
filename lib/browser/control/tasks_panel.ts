// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded by
// lib/browser/pages/control_center.ts when the Control Center first opens (not on page load).
// Control Center › Tasks in the browser: create and edit scheduled tasks (the schedule is read
// in the browser's own time zone), pause/resume, run now, history and delete through
// /api/crons/*. After each change the server renders the panel again and it is swapped in.
import { api } from "../api_client.ts";
import { t } from "../../i18n/t.ts";
import {
  controlLayer,
  focusAutofocus,
  localizeTimes,
  refreshPanel,
  reportError,
  setStatus,
  whileBusy,
} from "../control_panels.ts";

async function rerender(
  extra: Record<string, string> = {},
  message?: { text: string; tone?: "success" | "error" | "info" },
): Promise<void> {
  const host = await refreshPanel("tasks", extra);
  if (!host) return;
  localizeTimes(host);
  if (host.querySelector("[data-cc-autofocus]")) focusAutofocus(host);
  if (message) setStatus(host, "tasks", message.text, message.tone ?? "success");
}

function formBody(form: HTMLFormElement): Record<string, unknown> {
  const get = (n: string) =>
    (form.elements.namedItem(n) as HTMLInputElement | HTMLTextAreaElement | null)?.value ?? "";
  return {
    name: get("name").trim() || undefined,
    prompt: get("prompt"),
    schedule: get("schedule").trim(),
    timezone: get("timezone") || Intl.DateTimeFormat().resolvedOptions().timeZone,
    workspace: get("workspace") || null,
    model: get("model").trim() || null,
    deliver: get("deliver") || "new_session",
    deny_approvals: (form.elements.namedItem("deny_approvals") as HTMLInputElement).checked,
  };
}

async function saveTask(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const body = formBody(form);
  const missing = !String(body.prompt).trim() ? "prompt" : !body.schedule ? "schedule" : null;
  if (missing) {
    const input = form.querySelector<HTMLElement>(`[name="${missing}"]`);
    input?.setAttribute("aria-invalid", "true");
    input?.focus();
    setStatus(form, "task-form", t("tasks.needs", { field: missing }), "error");
    return;
  }
  await whileBusy(button, async () => {
    try {
      const job = form.dataset.job;
      const res = job
        ? await api<{ job: { name: string } }>("POST", "/api/crons/update", {
          job_id: job,
          ...body,
        })
        : await api<{ job: { name: string } }>("POST", "/api/crons/create", body);
      await rerender({}, { text: t("tasks.saved", { name: res.job.name }) });
    } catch (err) {
      reportError(form, "task-form", err);
    }
  });
}

async function taskAction(button: HTMLButtonElement, action: string) {
  const id = button.dataset.name ?? "";
  const form = button.closest("form");
  await whileBusy(button, async () => {
    try {
      switch (action) {
        case "task-new":
          return await rerender({ task: "" });
        case "task-edit":
          return await rerender({ task: id });
        case "task-cancel":
        case "task-history-close":
          return await rerender();
        case "task-history":
          return await rerender({ history: id });
        case "task-run": {
          const res = await api<{ run: { status: string; reason: string | null } }>(
            "POST",
            "/api/crons/run",
            { job_id: id },
          );
          const text = res.run.status === "skipped"
            ? res.run.reason ?? t("tasks.skipped")
            : t("tasks.started");
          return await rerender({ history: id }, { text, tone: "info" });
        }
        case "task-delete":
          await api("POST", "/api/crons/delete", { job_id: id });
          return await rerender({}, { text: t("tasks.deleted") });
      }
    } catch (err) {
      reportError(form ?? button.closest("[data-cc-section]"), form ? "task-form" : "tasks", err);
    }
  });
}

async function toggleTask(input: HTMLInputElement) {
  input.disabled = true;
  try {
    await api("POST", input.checked ? "/api/crons/resume" : "/api/crons/pause", {
      job_id: input.dataset.name,
    });
    await rerender({}, { text: input.checked ? t("tasks.resumed") : t("tasks.paused") });
  } catch (err) {
    input.checked = !input.checked;
    input.disabled = false;
    reportError(input.closest("[data-cc-section]"), "tasks", err);
  }
}

function init(): void {
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest<HTMLButtonElement>(
      "button[data-cc-action^='task-']",
    );
    if (button && controlLayer()?.contains(button)) {
      void taskAction(button, button.dataset.ccAction!);
    }
  });
  document.addEventListener("change", (e) => {
    const input = e.target as HTMLInputElement;
    if (input.dataset?.ccAction === "task-toggle" && controlLayer()?.contains(input)) {
      void toggleTask(input);
    }
  });
  document.addEventListener("submit", (e) => {
    const form = e.target as HTMLFormElement;
    if (form.dataset?.ccForm !== "task-save" || !controlLayer()?.contains(form)) return;
    e.preventDefault();
    void saveTask(form, (e as SubmitEvent).submitter as HTMLButtonElement | null);
  });
}

if (typeof document !== "undefined") init();
