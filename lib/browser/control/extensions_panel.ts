// Browser-safe (lib/browser/control): imports nothing from Deno or the database. Loaded by
// lib/browser/pages/control_center.ts when the Control Center first opens (not on page load).
// The agent's extensions in the Control Center: MCP servers (add, edit, enable/disable,
// reconnect, delete through /api/mcp/*), skills (create, edit SKILL.md, enable/disable,
// delete through /api/skills/*) and the memory files (/api/memory/write). After each change
// the panel is rendered again by the server and swapped in, so the list always shows the
// server's state (a server's connection, its tool count, its last error).
import { api } from "../api_client.ts";
import { t } from "../../i18n/t.ts";
import {
  clearInvalid,
  controlLayer,
  focusAutofocus,
  refreshPanel,
  reportError,
  setStatus,
  whileBusy,
} from "../control_panels.ts";

const SERVER_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SKILL_NAME_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A problem with one field, found before anything is sent. */
class FieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

function invalid(form: HTMLFormElement, hook: string, err: FieldError): void {
  const input = form.querySelector<HTMLElement>(`[name="${err.field}"]`);
  input?.setAttribute("aria-invalid", "true");
  input?.focus();
  setStatus(form, hook, err.message, "error");
}

/**
 * Swap a panel in again, keep focus on the same control when it still exists (a toggle, a
 * button of the same row), else on what the new markup asks for; then say `message`.
 */
async function rerender(
  section: "mcp" | "skills",
  extra: Record<string, string> = {},
  message?: { hook: string; text: string; tone?: "success" | "error" | "info" },
): Promise<void> {
  const active = document.activeElement as HTMLElement | null;
  const key = active?.dataset.ccAction && active.dataset.name !== undefined
    ? `[data-cc-action="${active.dataset.ccAction}"][data-name="${
      CSS.escape(active.dataset.name)
    }"]`
    : null;
  const host = await refreshPanel(section, extra);
  if (!host) return;
  const same = key ? host.querySelector<HTMLElement>(key) : null;
  if (same) same.focus();
  else if (host.querySelector("[data-cc-autofocus]")) focusAutofocus(host);
  else if (active && !active.isConnected) {
    host.querySelector<HTMLElement>(
      `[data-cc-action="${section === "mcp" ? "mcp-new" : "skill-new"}"]`,
    )
      ?.focus();
  }
  if (message) setStatus(host, message.hook, message.text, message.tone ?? "success");
}

/* MCP servers -------------------------------------------------------------------------- */

/** `KEY=value` (or `Name: value`) lines to a map; blank lines are skipped. */
function parsePairs(text: string, sep: "=" | ":", field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.replace(/\r$/, "");
    if (!line.trim()) continue;
    const at = line.indexOf(sep);
    const key = at > 0 ? line.slice(0, at).trim() : "";
    if (!key) {
      throw new FieldError(field, t("extensions.mcpPairInvalid", { field, line: i + 1 }));
    }
    out[key] = line.slice(at + 1).trim();
  }
  return out;
}

function mcpBody(form: HTMLFormElement): { name: string; body: Record<string, unknown> } {
  const get = (n: string) => (form.elements.namedItem(n) as HTMLInputElement | null)?.value ?? "";
  const name = get("name").trim();
  if (!SERVER_NAME_RE.test(name)) {
    throw new FieldError("name", t("extensions.mcpNameInvalid"));
  }
  if (
    form.dataset.mode === "new" &&
    controlLayer()?.querySelector(`[data-mcp-server="${CSS.escape(name)}"]`)
  ) {
    throw new FieldError("name", t("extensions.mcpNameTaken", { name }));
  }
  const transport = (form.querySelector<HTMLInputElement>("input[name=transport]:checked")?.value ??
    "stdio") as "stdio" | "http";
  const body: Record<string, unknown> = {
    transport,
    enabled: (form.elements.namedItem("enabled") as HTMLInputElement).checked,
    approval: get("approval") || "ask",
  };
  if (transport === "stdio") {
    const command = get("command").trim();
    if (!command) throw new FieldError("command", t("extensions.mcpNeedsCommand"));
    body.command = command;
    const args = get("args").split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => l.trim());
    if (args.length) body.args = args;
    const env = parsePairs(get("env"), "=", "env");
    if (Object.keys(env).length) body.env = env;
    if (get("cwd").trim()) body.cwd = get("cwd").trim();
  } else {
    const url = get("url").trim();
    if (!url) throw new FieldError("url", t("extensions.mcpNeedsUrl"));
    body.url = url;
    const headers = parsePairs(get("headers"), ":", "headers");
    if (Object.keys(headers).length) body.headers = headers;
  }
  for (const key of ["timeout", "connect_timeout"]) {
    const v = get(key).trim();
    if (!v) continue;
    const n = Number(v);
    if (!(n > 0)) throw new FieldError(key, t("extensions.mcpTimeoutInvalid"));
    body[key] = n;
  }
  return { name, body };
}

interface McpRow {
  name: string;
  status: string;
  tool_count: number;
  last_error: string | null;
  enabled: boolean;
}

/** The sentence after a (re)connection: connected with N tools, or why not. */
function connectionReport(row: McpRow | undefined, name: string) {
  if (!row) return { text: t("extensions.saved", { name }), tone: "success" as const };
  if (!row.enabled) {
    return { text: t("extensions.mcpSavedDisabled", { name }), tone: "success" as const };
  }
  if (row.status === "connected") {
    return {
      text: t("extensions.mcpConnectedReport", { name, count: row.tool_count }),
      tone: "success" as const,
    };
  }
  return {
    text: row.last_error
      ? t("extensions.mcpNotConnectedBecause", { name, error: row.last_error })
      : t("extensions.mcpNotConnected", { name }),
    tone: "error" as const,
  };
}

async function reconnect(name?: string): Promise<McpRow[]> {
  const res = await api<{ servers: McpRow[] }>("POST", "/api/mcp/reload", name ? { name } : {});
  return res.servers;
}

async function saveServer(form: HTMLFormElement, button: HTMLButtonElement | null) {
  let parsed: ReturnType<typeof mcpBody>;
  try {
    parsed = mcpBody(form);
  } catch (err) {
    if (err instanceof FieldError) return invalid(form, "mcp-form", err);
    throw err;
  }
  const { name, body } = parsed;
  await whileBusy(button, async () => {
    try {
      setStatus(
        form,
        "mcp-form",
        body.enabled ? t("extensions.mcpSavingConnecting") : t("extensions.mcpSaving"),
        "info",
      );
      await api("PUT", `/api/mcp/servers/${encodeURIComponent(name)}`, body);
      const rows = body.enabled ? await reconnect(name) : [];
      const report = connectionReport(rows.find((r) => r.name === name), name);
      await rerender("mcp", {}, { hook: "mcp", ...report });
      controlLayer()?.querySelector<HTMLElement>(
        `[data-cc-action="mcp-edit"][data-name="${CSS.escape(name)}"]`,
      )
        ?.focus();
    } catch (err) {
      reportError(form, "mcp-form", err);
    }
  });
}

async function mcpAction(button: HTMLButtonElement, action: string) {
  const name = button.dataset.name ?? "";
  const panel = button.closest("[data-cc-section]");
  await whileBusy(button, async () => {
    try {
      switch (action) {
        case "mcp-new":
          return await rerender("mcp", { mcp: "" });
        case "mcp-edit":
          return await rerender("mcp", { mcp: name });
        case "mcp-cancel":
          return await rerender("mcp");
        case "mcp-reload": {
          setStatus(panel, "mcp", t("extensions.mcpReconnecting", { name }), "info");
          const rows = await reconnect(name);
          const report = connectionReport(rows.find((r) => r.name === name), name);
          return await rerender("mcp", {}, { hook: "mcp", ...report });
        }
        case "mcp-reload-all": {
          setStatus(panel, "mcp", t("extensions.mcpReconnectingAll"), "info");
          const rows = await reconnect();
          const failed = rows.filter((r) => r.status !== "connected");
          return await rerender("mcp", {}, {
            hook: "mcp",
            text: failed.length
              ? t("extensions.mcpSomeConnected", {
                connected: rows.length - failed.length,
                total: rows.length,
                failed: failed.map((r) => r.name).join(", "),
              })
              : t("extensions.mcpAllConnected", { count: rows.length }),
            tone: failed.length ? "error" : "success",
          });
        }
        case "mcp-delete":
          await api("DELETE", `/api/mcp/servers/${encodeURIComponent(name)}`);
          return await rerender("mcp", {}, {
            hook: "mcp",
            text: t("extensions.deleted", { name }),
          });
      }
    } catch (err) {
      reportError(
        button.closest("form") ?? panel,
        button.closest("form") ? "mcp-form" : "mcp",
        err,
      );
    }
  });
}

async function toggleServer(input: HTMLInputElement) {
  const name = input.dataset.name!;
  const panel = input.closest("[data-cc-section]");
  input.disabled = true;
  try {
    await api("PATCH", `/api/mcp/servers/${encodeURIComponent(name)}`, { enabled: input.checked });
    if (input.checked) {
      setStatus(panel, "mcp", t("extensions.mcpConnectingName", { name }), "info");
      const rows = await reconnect(name);
      await rerender("mcp", {}, {
        hook: "mcp",
        ...connectionReport(rows.find((r) => r.name === name), name),
      });
    } else {
      await rerender("mcp", {}, { hook: "mcp", text: t("extensions.disabledName", { name }) });
    }
  } catch (err) {
    input.checked = !input.checked;
    input.disabled = false;
    reportError(panel, "mcp", err);
  }
}

/* Skills ------------------------------------------------------------------------------ */

async function saveSkill(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const name = (form.elements.namedItem("name") as HTMLInputElement).value.trim();
  const content = (form.elements.namedItem("content") as HTMLTextAreaElement).value;
  try {
    if (!SKILL_NAME_RE.test(name) || name.includes("..")) {
      throw new FieldError("name", t("extensions.skillNameInvalid"));
    }
    if (
      form.dataset.mode === "new" &&
      controlLayer()?.querySelector(`[data-skill="${CSS.escape(name)}"]`)
    ) {
      throw new FieldError("name", t("extensions.skillNameTaken", { name }));
    }
    if (!content.trim()) throw new FieldError("content", t("extensions.skillEmpty"));
  } catch (err) {
    if (err instanceof FieldError) return invalid(form, "skill-form", err);
    throw err;
  }
  await whileBusy(button, async () => {
    try {
      await api("POST", "/api/skills/save", { name, content });
      await rerender("skills", {}, { hook: "skills", text: t("extensions.saved", { name }) });
      controlLayer()?.querySelector<HTMLElement>(
        `[data-cc-action="skill-edit"][data-name="${CSS.escape(name)}"]`,
      )
        ?.focus();
    } catch (err) {
      reportError(form, "skill-form", err);
    }
  });
}

async function skillAction(button: HTMLButtonElement, action: string) {
  const name = button.dataset.name ?? "";
  const panel = button.closest("[data-cc-section]");
  await whileBusy(button, async () => {
    try {
      switch (action) {
        case "skill-new":
          return await rerender("skills", { skill: "" });
        case "skill-edit":
          return await rerender("skills", { skill: name });
        case "skill-cancel":
          return await rerender("skills");
        case "skill-delete":
          await api("POST", "/api/skills/delete", { name });
          return await rerender("skills", {}, {
            hook: "skills",
            text: t("extensions.deleted", { name }),
          });
      }
    } catch (err) {
      reportError(
        button.closest("form") ?? panel,
        button.closest("form") ? "skill-form" : "skills",
        err,
      );
    }
  });
}

async function toggleSkill(input: HTMLInputElement) {
  const name = input.dataset.name!;
  const panel = input.closest("[data-cc-section]");
  input.disabled = true;
  try {
    await api("POST", "/api/skills/toggle", { name, enabled: input.checked });
    await rerender("skills", {}, {
      hook: "skills",
      text: input.checked
        ? t("extensions.enabledName", { name })
        : t("extensions.disabledName", { name }),
    });
  } catch (err) {
    input.checked = !input.checked;
    input.disabled = false;
    reportError(panel, "skills", err);
  }
}

/* Memory ------------------------------------------------------------------------------ */

/** Same messages as components/control/MemoryPanel.tsx memoryCounterText(). */
function counterText(length: number, budget: number): string {
  return length > budget
    ? t("extensions.memoryOverBudget", { length, budget })
    : t("extensions.memoryCounter", { length, budget });
}

function updateCounter(area: HTMLTextAreaElement): void {
  const counter = area.form?.querySelector<HTMLElement>("[data-cc-counter]");
  const budget = Number(area.dataset.budget);
  if (!counter || !budget) return;
  counter.textContent = counterText(area.value.length, budget);
  counter.toggleAttribute("data-over", area.value.length > budget);
}

async function saveMemory(form: HTMLFormElement, button: HTMLButtonElement | null) {
  const section = form.dataset.section as "memory" | "user" | "soul";
  const hook = `memory-${section}`;
  const area = form.elements.namedItem("content") as HTMLTextAreaElement;
  if (area.value === area.defaultValue) {
    setStatus(form, hook, t("extensions.memoryUnchanged"), "info");
    return;
  }
  await whileBusy(button, async () => {
    try {
      await api("POST", "/api/memory/write", { section, content: area.value });
      area.defaultValue = area.value;
      setStatus(form, hook, t("extensions.memorySaved"), "success");
    } catch (err) {
      reportError(form, hook, err);
    }
  });
}

/** Show only the skills whose name, description or category holds every typed word. */
function filterSkills(input: HTMLInputElement): void {
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  const list = input.closest("[data-cc-section]")?.querySelector("[data-cc-list=skills]");
  for (const row of list?.querySelectorAll<HTMLElement>("[data-skill]") ?? []) {
    const text = row.dataset.search ?? "";
    row.hidden = !words.every((w) => text.includes(w));
  }
}

/* Wiring ------------------------------------------------------------------------------ */

function init(): void {
  document.addEventListener("click", (e) => {
    const button = (e.target as Element | null)?.closest<HTMLButtonElement>(
      "button[data-cc-action]",
    );
    const action = button?.dataset.ccAction ?? "";
    if (!button || !controlLayer()?.contains(button)) return;
    if (action.startsWith("mcp-")) void mcpAction(button, action);
    else if (action.startsWith("skill-")) void skillAction(button, action);
  });

  document.addEventListener("change", (e) => {
    const input = e.target as HTMLInputElement;
    if (!controlLayer()?.contains(input)) return;
    if (input.dataset.ccAction === "mcp-toggle") void toggleServer(input);
    else if (input.dataset.ccAction === "skill-toggle") void toggleSkill(input);
    else if (input.name === "transport") {
      const form = input.closest<HTMLFormElement>("form[data-cc-form=mcp-save]");
      if (form) form.dataset.transport = input.value;
    }
  });

  document.addEventListener("input", (e) => {
    const area = e.target as HTMLTextAreaElement;
    if (area.form?.dataset.ccForm === "memory") updateCounter(area);
    if ((e.target as HTMLElement).hasAttribute?.("data-cc-skill-search")) {
      filterSkills(e.target as HTMLInputElement);
    }
  });

  document.addEventListener("submit", (e) => {
    const form = e.target as HTMLFormElement;
    if (!controlLayer()?.contains(form)) return;
    const handlers: Record<string, (f: HTMLFormElement, b: HTMLButtonElement | null) => unknown> = {
      "mcp-save": saveServer,
      "skill-save": saveSkill,
      memory: saveMemory,
    };
    const handler = handlers[form.dataset.ccForm ?? ""];
    if (!handler) return;
    e.preventDefault();
    clearInvalid(form);
    void handler(form, (e as SubmitEvent).submitter as HTMLButtonElement | null);
  });
}

if (typeof document !== "undefined") init();
