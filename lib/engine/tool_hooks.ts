// The engine's bridge to the tools subsystem: the session's toolset (built-ins from
// lib/tools/registry.ts plus the tools of connected MCP servers), approvals (lib/approvals/approvals.ts)
// and clarifying questions (lib/approvals/clarify.ts), each bound to the run that asks.
import { requestApproval } from "../approvals/approvals.ts";
import { askClarify } from "../approvals/clarify.ts";
import { unattendedReason } from "../tasks/jobs.ts";
import { getProfileSettings, sessionProfile } from "../agent/profiles.ts";
import type { EngineHost } from "./engine_host.ts";
import { sideKindOf } from "../sessions/side_sessions.ts";

/**
 * The tool definitions (each with its zod schema: zod alone is ~5 MB resident) load with the
 * first toolset a run builds, not at start: an idle console never needs them.
 */
let toolModules:
  | Promise<[typeof import("../tools/registry.ts"), typeof import("../tools/mcp_tools.ts")]>
  | undefined;
const loadToolModules = () =>
  toolModules ??= Promise.all([import("../tools/registry.ts"), import("../tools/mcp_tools.ts")])
    .catch((err) => {
      toolModules = undefined; // a failed import is retried by the next run
      throw err;
    });

/** `mcp__<server>__<tool>` → `<server>`. */
function mcpServerOf(toolName: string): string {
  return toolName.split("__")[1] ?? "";
}

/** The MCP servers the session's profile allows, or null for all of them. */
function profileMcpServers(app: EngineHost, profile: string): string[] | null {
  try {
    return getProfileSettings(app.config, profile).mcp_servers;
  } catch {
    return null; // a deleted profile's sessions moved to default, which allows all
  }
}
import type { EngineHooks } from "./engine_hooks.ts";

/** `terminal.allow_network: true` in config.yaml lets sandboxed commands reach the network. */
function terminalNetwork(file: Record<string, unknown>): boolean {
  const t = file.terminal;
  return !!t && typeof t === "object" && (t as Record<string, unknown>).allow_network === true;
}

export const TOOL_HOOKS: EngineHooks = {
  async buildTools(app, session) {
    // A `/btw` side question is answered from the context alone (lib/engine/side_question.ts).
    if (await sideKindOf(app.db, session.session_id) === "btw") return [];
    const [{ buildToolset }, { loadMcpTools }] = await loadToolModules();
    // The session's profile: whose skills and memory its tools use, which MCP servers it allows.
    const profile = await sessionProfile(app.db, session.session_id);
    const builtIn = await buildToolset(app, session, profile);
    const mcp = await loadMcpTools(app.mcp).catch((err) => {
      app.log.warn("MCP tools unavailable for this turn", { error: String(err) });
      return [];
    });
    const names = new Set(builtIn.map((t) => t.name));
    // A profile may limit which MCP servers its sessions use (`profiles.<name>.mcp_servers`).
    const allowed = profileMcpServers(app, profile);
    return [
      ...builtIn,
      ...mcp.filter((t) =>
        !names.has(t.name) && (allowed === null || allowed.includes(mcpServerOf(t.name)))
      ),
    ];
  },
  async requestApproval(app, run, req) {
    const decision = await requestApproval(app, {
      sessionId: run.sessionId,
      streamId: run.streamId,
      ...req,
      unattended: (await unattendedReason(app.db, run.sessionId)) ??
        await backgroundUnattended(app, run.sessionId),
      emit: (e) => run.emit(e),
      signal: run.signal,
    });
    return {
      approved: decision.approved,
      ...(decision.message ? { message: decision.message } : {}),
      ...(decision.rule ? { rule: decision.rule } : {}),
      ...(decision.command ? { command: decision.command } : {}),
    };
  },
  askClarify: (app, run, question, choices) =>
    askClarify(app.tools.clarify, {
      sessionId: run.sessionId,
      question,
      ...(choices ? { choices } : {}),
      emit: (e) => run.emit(e),
      signal: run.signal,
    }),
  allowNetwork: (app, session) => session.allow_network || terminalNetwork(app.config.file),
};

/** A `/background` task runs where nobody sees an approval card: what would ask is denied. */
async function backgroundUnattended(
  app: EngineHost,
  sessionId: string,
): Promise<string | undefined> {
  return await sideKindOf(app.db, sessionId) === "bg"
    ? "Denied: this background task runs unattended and cannot ask for approval. Find a way " +
      "that needs no approval, or say what you would need."
    : undefined;
}
