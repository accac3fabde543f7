// What the engine needs from the app that hosts it: config, storage, clock, log and the tools
// subsystem. The app's full context (lib/server/app_context.ts) extends this, so the engine never
// imports the server layer and the two cannot import each other in a circle.
import type { AppConfig } from "../settings/config.ts";
import type { Db } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";
import type { McpManager } from "../mcp/manager.ts";
import type { ToolsRuntime } from "../tools/runtime.ts";

/** The app as the engine, its tools and its system prompt see it. */
export interface EngineHost {
  config: AppConfig;
  db: Db;
  clock: Clock;
  log: Logger;
  /** MCP server connections whose tools join a session's toolset. */
  mcp: McpManager;
  /** The agent's tools: file sandbox, terminal runner, approvals, clarify. */
  tools: ToolsRuntime;
}
