// Browser-safe: imports nothing from Deno or the database. Loaded by lib/browser/pages/onboarding.ts
// on the page that shows the wizard.
// The first-run wizard (components/OnboardingWizard.tsx) in the browser: choosing a
// provider shows the fields it needs, "Test connection" asks POST /api/onboarding/probe and
// lists the models it answered with, Continue leads to the model and workspace, Finish
// writes the choice (POST /api/onboarding/complete) and opens the console. "Skip for now"
// records onboarding_completed so the wizard does not come back.
import { api, ApiError } from "./api_client.ts";
import { t } from "../i18n/t.ts";

/** POST /api/onboarding/probe's answer: `error` is a code, `detail` the sentence to show. */
interface ProbeResult {
  ok: boolean;
  models?: Array<{ id: string; label: string }>;
  error?: string;
  detail?: string;
}

/** What a successful probe found, for the provider and URL it was made with. */
let probed: { key: string; models: string[] } | null = null;

/** Providers whose address is asked for (hosted APIs use their own). */
const takesUrl = (provider: string) => ["custom", "ollama", "lmstudio"].includes(provider);

const $ = <T extends Element>(root: ParentNode, sel: string) => root.querySelector<T>(sel);

function chosen(form: HTMLFormElement): HTMLInputElement | null {
  return $<HTMLInputElement>(form, "input[name=provider]:checked");
}

function field(form: HTMLFormElement, name: string): HTMLInputElement {
  return form.elements.namedItem(name) as HTMLInputElement;
}

/** Provider + URL + key identify a probe: changing any of them asks for a new test. */
function probeKey(form: HTMLFormElement): string {
  const p = chosen(form);
  return JSON.stringify([
    p?.value,
    field(form, "base_url").value.trim(),
    field(form, "api_key").value,
  ]);
}

function setStatus(
  form: HTMLFormElement,
  text: string,
  tone: "info" | "error" | "success" = "info",
) {
  const el = $<HTMLElement>(form, "[data-ob-status]");
  if (!el) return;
  el.textContent = text;
  el.dataset.tone = tone;
}

function setProbe(form: HTMLFormElement, text: string, tone: "info" | "error" | "success") {
  const el = $<HTMLElement>(form, "[data-ob-probe]");
  if (!el) return;
  el.textContent = text;
  el.dataset.tone = tone;
}

function next(form: HTMLFormElement): HTMLButtonElement {
  return $<HTMLButtonElement>(form, '[data-ob-action="next"]')!;
}

/** Show the fields the chosen provider needs and reset what a different choice invalidates. */
function providerChanged(form: HTMLFormElement): void {
  const p = chosen(form);
  if (!p) return;
  form.dataset.provider = p.value;
  const url = field(form, "base_url");
  url.value = p.dataset.baseUrl ?? "";
  url.required = p.value === "custom";
  const key = field(form, "api_key");
  key.value = "";
  const env = p.dataset.keyEnv;
  key.placeholder = p.hasAttribute("data-has-key") && env
    ? t("onboarding.keyFromEnv", { env })
    : p.hasAttribute("data-needs-key")
    ? t("onboarding.pasteKey")
    : t("onboarding.optional");
  // A running local server already listed its models: no test needed.
  const models = p.dataset.models ? JSON.parse(p.dataset.models) as string[] : null;
  probed = models ? { key: probeKey(form), models } : null;
  setProbe(
    form,
    models ? t("onboarding.runningModels", { count: models.length }) : "",
    "success",
  );
  setStatus(form, "");
  next(form).disabled = false;
  if (p.value === "custom") url.focus();
  else if (p.hasAttribute("data-needs-key") && !p.hasAttribute("data-has-key")) key.focus();
}

/** Ask the chosen endpoint for its models; true when it answered. */
async function probe(form: HTMLFormElement): Promise<boolean> {
  const p = chosen(form);
  if (!p) {
    setStatus(form, t("onboarding.chooseProvider"), "error");
    return false;
  }
  const url = field(form, "base_url");
  const key = field(form, "api_key");
  if (p.value === "custom" && !url.value.trim()) {
    url.setAttribute("aria-invalid", "true");
    url.focus();
    setProbe(form, t("onboarding.enterBaseUrl"), "error");
    return false;
  }
  if (p.hasAttribute("data-needs-key") && !p.hasAttribute("data-has-key") && !key.value.trim()) {
    key.setAttribute("aria-invalid", "true");
    key.focus();
    const name = p.closest("label")?.querySelector(".ob-choice-label")?.textContent;
    setProbe(
      form,
      name ? t("onboarding.needsKey", { provider: name }) : t("onboarding.needsKeyGeneric"),
      "error",
    );
    return false;
  }
  const button = $<HTMLButtonElement>(form, '[data-ob-action="probe"]')!;
  button.disabled = true;
  setProbe(form, t("onboarding.testing"), "info");
  try {
    const body: Record<string, unknown> = { provider: p.value };
    if (url.value.trim() && takesUrl(p.value)) body.base_url = url.value.trim();
    if (key.value.trim()) body.api_key = key.value.trim();
    const res = await api<ProbeResult>("POST", "/api/onboarding/probe", body);
    if (!res.ok) {
      probed = null;
      setProbe(form, res.detail ?? t("onboarding.noAnswer"), "error");
      return false;
    }
    const models = (res.models ?? []).map((m) => m.id);
    probed = { key: probeKey(form), models };
    setProbe(form, t("onboarding.connected", { count: models.length }), "success");
    return true;
  } catch (err) {
    probed = null;
    setProbe(form, err instanceof ApiError ? err.message : String(err), "error");
    return false;
  } finally {
    button.disabled = false;
  }
}

/** Fill the model list with what the probe found, preferring a previously chosen one. */
function fillModels(form: HTMLFormElement, models: string[]): void {
  const select = $<HTMLSelectElement>(form, "[data-ob-models]")!;
  const text = field(form, "model_text");
  const preferred = [select.value, chosen(form)?.dataset.defaultModel].find((m) =>
    m && models.includes(m)
  );
  select.replaceChildren(...models.map((m) => new Option(m, m, false, m === preferred)));
  const none = models.length === 0;
  select.hidden = none;
  text.hidden = !none;
  const hint = $<HTMLElement>(form, "[data-ob-model-hint]");
  if (hint) {
    hint.textContent = none
      ? t("onboarding.noModelsListed")
      : t("onboarding.modelsFromServer", { count: models.length });
  }
}

function showStep(form: HTMLFormElement, step: "provider" | "model"): void {
  form.dataset.step = step;
  for (const s of form.querySelectorAll<HTMLElement>("[data-ob-step]")) {
    s.hidden = s.dataset.obStep !== step;
  }
  for (const m of form.querySelectorAll<HTMLElement>("[data-ob-step-mark]")) {
    if (m.dataset.obStepMark === step) m.setAttribute("aria-current", "step");
    else m.removeAttribute("aria-current");
  }
  $<HTMLElement>(form, '[data-ob-action="back"]')!.hidden = step === "provider";
  next(form).textContent = step === "provider" ? t("onboarding.continue") : t("onboarding.finish");
  next(form).disabled = step === "provider" && !chosen(form);
  setStatus(form, "");
  const first = step === "model"
    ? $<HTMLElement>(form, "[data-ob-models]:not([hidden]), #ob-model-text:not([hidden])")
    : chosen(form);
  first?.focus();
}

async function finish(form: HTMLFormElement, button: HTMLButtonElement): Promise<void> {
  const p = chosen(form)!;
  const select = $<HTMLSelectElement>(form, "[data-ob-models]")!;
  const model = (select.hidden ? field(form, "model_text").value : select.value).trim();
  if (!model) {
    setStatus(form, t("onboarding.chooseModel"), "error");
    return;
  }
  const password = (form.elements.namedItem("password") as HTMLInputElement | null)?.value ?? "";
  if (password && password.length < 8) {
    const input = field(form, "password");
    input.setAttribute("aria-invalid", "true");
    input.focus();
    setStatus(form, t("onboarding.passwordShort"), "error");
    return;
  }
  const body: Record<string, unknown> = { provider: p.value, model };
  const url = field(form, "base_url").value.trim();
  const key = field(form, "api_key").value.trim();
  if (url && takesUrl(p.value)) body.base_url = url;
  if (key) body.api_key = key;
  const workspace = field(form, "workspace").value.trim();
  if (workspace) body.workspace = workspace;
  if (password) body.password = password;
  button.disabled = true;
  setStatus(form, t("onboarding.saving"), "info");
  try {
    const res = await api<{ has_provider: boolean; issue?: string }>(
      "POST",
      "/api/onboarding/complete",
      body,
    );
    if (!res.has_provider) {
      setStatus(form, res.issue ?? t("onboarding.savedUnusable"), "error");
      return;
    }
    setStatus(form, t("onboarding.ready"), "success");
    location.assign("/");
  } catch (err) {
    const field = err instanceof ApiError
      ? (err.body as { field?: unknown } | null)?.field
      : undefined;
    if (typeof field === "string") {
      const input = form.querySelector<HTMLElement>(`[name="${field}"]`);
      if (input && field !== "base_url" && field !== "api_key") {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    }
    setStatus(form, err instanceof ApiError ? err.message : String(err), "error");
  } finally {
    button.disabled = false;
  }
}

async function skip(form: HTMLFormElement, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  try {
    await api("POST", "/api/settings", { onboarding_completed: true });
    location.assign("/");
  } catch (err) {
    setStatus(form, err instanceof ApiError ? err.message : String(err), "error");
    button.disabled = false;
  }
}

function init(): void {
  const form = document.querySelector<HTMLFormElement>("form[data-ob]");
  if (!form) return;
  if (chosen(form)) providerChanged(form);

  form.addEventListener("change", (e) => {
    const target = e.target as HTMLInputElement;
    if (target.name === "provider") providerChanged(form);
  });
  form.addEventListener("input", (e) => {
    const target = e.target as HTMLElement;
    target.removeAttribute("aria-invalid");
    if (target.closest("[data-ob-details]") && probed && probed.key !== probeKey(form)) {
      probed = null;
      setProbe(form, "", "info");
    }
  });
  form.addEventListener("click", (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>("button[data-ob-action]");
    const action = button?.dataset.obAction;
    if (action === "probe") {
      void probe(form).then((ok) => {
        if (ok) next(form).focus();
      });
    } else if (action === "back") showStep(form, "provider");
    else if (action === "skip") void skip(form, button!);
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const button = next(form);
    if (form.dataset.step === "model") return void finish(form, button);
    if (!probed || probed.key !== probeKey(form)) {
      if (!await probe(form)) return;
    }
    fillModels(form, probed!.models);
    showStep(form, "model");
  });
}

if (typeof document !== "undefined") init();
