// The built-in toolset of a session and the one entry point that runs a call by name.
// Invariant: runToolCall never throws — unknown tools, invalid arguments (zod) and exceptions
// inside a tool all come back as an error result the model can read and correct.
import type { EngineHost } from "../engine/engine_host.ts";
import type { ToolContext, ToolDefinition, ToolResult } from "./types.ts";
import {
  listDirectoryTool,
  patchTool,
  readFileTool,
  searchFilesTool,
  writeFileTool,
} from "./file_tools.ts";
import { terminalTool } from "./terminal.ts";
import { todoTool } from "./todo.ts";
import { clarifyTool } from "./clarify.ts";
import { skillTool } from "./skill_tool.ts";
import { memoryTool } from "./memory_tool.ts";
import { delegateTool } from "./delegate_tool.ts";
import { configForProfile, sessionProfile } from "../agent/profiles.ts";
import { changedCodeBaseline } from "../approvals/approvals.ts";

/**
 * The built-in tools for one session (MCP tools are added by the engine). `profile` is the
 * session's profile (lib/agent/profiles.ts), whose skills and memory the tools use; the engine
 * has read it already and passes it. Without it (tests calling this directly) it is read here.
 */
export async function buildToolset(
  app: EngineHost,
  session: { session_id: string; workspace: string },
  profile?: string,
): Promise<ToolDefinition[]> {
  profile ??= await sessionProfile(app.db, session.session_id);
  const rt = app.tools;
  const profileConfig = configForProfile(app.config, profile);
  return [
    readFileTool(rt.files),
    writeFileTool(rt.files),
    patchTool(rt.files),
    listDirectoryTool(rt.files),
    searchFilesTool(rt.files),
    terminalTool({
      commands: rt.commands,
      configPath: app.config.configPath,
      home: app.config.home,
      defaultTimeoutMs: rt.terminal.defaultTimeoutMs,
      maxTimeoutMs: rt.terminal.maxTimeoutMs,
      changedSince: async (sessionId) => (await changedCodeBaseline(app.db, sessionId)) * 1000,
    }),
    todoTool({ db: app.db, todos: rt.todos }),
    clarifyTool(),
    skillTool(profileConfig),
    memoryTool(profileConfig.stateDir),
    delegateTool(),
  ];
}

/** Run the named tool with raw (unvalidated) arguments; every failure is a result. */
export async function runToolCall(
  tools: ToolDefinition[],
  name: string,
  rawArgs: unknown,
  ctx: ToolContext,
): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    return {
      output: `Unknown tool "${name}". Available tools: ${tools.map((t) => t.name).join(", ")}.`,
      isError: true,
    };
  }
  let args = rawArgs;
  if (typeof args === "string") {
    try {
      args = args.trim() === "" ? {} : JSON.parse(args);
    } catch (err) {
      return {
        output: `Arguments for ${name} are not valid JSON (${(err as Error).message}).`,
        isError: true,
      };
    }
  }
  const parsed = tool.parameters.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) =>
      `${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`
    );
    return { output: `Invalid arguments for ${name}: ${issues.join("; ")}`, isError: true };
  }
  try {
    return await tool.execute(parsed.data, ctx);
  } catch (err) {
    return { output: `${name} failed: ${(err as Error).message}`, isError: true };
  }
}
