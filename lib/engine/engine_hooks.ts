// How the engine reaches the tools subsystem (tool registry, approvals, clarify), as an interface
// the engine owns. lib/engine/tool_hooks.ts wires the real subsystem; tests of the bare loop use
// NO_TOOL_HOOKS. Kept apart from engine_options.ts so neither imports the other in a circle.
import type { EngineHost } from "./engine_host.ts";
import type { SessionRow } from "../sessions/sessions.ts";
import type { ToolDefinition } from "../tools/types.ts";
import type { Run } from "./run.ts";

/** How the engine reaches tools, approvals and clarify (wired to lib/tools in main.ts). */
export interface EngineHooks {
  buildTools(app: EngineHost, session: SessionRow): ToolDefinition[] | Promise<ToolDefinition[]>;
  requestApproval(
    app: EngineHost,
    run: Run,
    req: { command: string; description: string; patternKey: string; patternKeys: string[] },
  ): Promise<{ approved: boolean; message?: string; rule?: string }>;
  askClarify(app: EngineHost, run: Run, question: string, choices?: string[]): Promise<string>;
  allowNetwork(app: EngineHost, session: SessionRow): boolean;
}

/** Hooks for a console without tools (tests of the bare loop): nothing to run, approve or ask. */
export const NO_TOOL_HOOKS: EngineHooks = {
  buildTools: () => [],
  requestApproval: () =>
    Promise.resolve({ approved: false, message: "Approvals are not available in this console" }),
  askClarify: () => Promise.reject(new Error("Asking the user is not available in this console")),
  allowNetwork: () => false,
};
