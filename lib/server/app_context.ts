// The dependencies every route and middleware receives, wired once in main.ts.
// Concept modules never reach for globals: they get what they need from here, so two
// apps (e.g. two tests) can run side by side in one process without sharing state.
import type { AppConfig } from "../settings/config.ts";
import type { Db } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";
import type { Security } from "../security/auth.ts";
import type { McpManager } from "../mcp/manager.ts";
import type { ToolsRuntime } from "../tools/runtime.ts";
import type { RunManager } from "../engine/run_manager.ts";
import type { ModelCatalog } from "../models/model_catalog.ts";
import type { EngineHost } from "../engine/engine_host.ts";
import type { TaskScheduler } from "../tasks/scheduler.ts";
import type { TerminalManager } from "../terminal/terminal_manager.ts";
import type { LiveResponses } from "./live_responses.ts";

/** The app: what the engine needs (EngineHost) plus the server's own subsystems. */
export interface AppContext extends EngineHost {
  config: AppConfig;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Epoch seconds when this server started. */
  startedAt: number;
  /** Called on shutdown, in reverse order of registration (close streams, db, servers). */
  onClose: Array<() => void | Promise<void>>;
  /**
   * Open event streams, sockets and long polls, ended with a going-away frame when the server
   * shuts down (lib/server/live_responses.ts): its `signal` aborts then.
   */
  live: LiveResponses;
  /** Login sessions, cookie signing and per-client rate limits (lib/security/auth.ts). */
  security: Security;
  /** MCP server connections (lib/mcp/manager.ts); closed with the app. */
  mcp: McpManager;
  /** The agent's tools: file sandbox, terminal runner, approvals, clarify (lib/tools/runtime.ts). */
  tools: ToolsRuntime;
  /**
   * Re-read config.yaml into `config`, layer stored settings on, run `onProviderConfigChange`
   * (lib/settings/settings.ts reloadAppConfig): a provider written by onboarding works without restart.
   */
  reloadConfig(): Promise<void>;
  /** Provider caches to drop when provider config changes (push the catalog's invalidate). */
  onProviderConfigChange: Array<() => void | Promise<void>>;
  /** Agent runs: start, cancel, replay and recovery (lib/engine/run_manager.ts). */
  runs: RunManager;
  /** The model picker's catalog: live discovery under a time budget (lib/models/model_catalog.ts). */
  models: ModelCatalog;
  /** Scheduled tasks (lib/tasks/scheduler.ts): started by main() once the server listens. */
  tasks: TaskScheduler;
  /** The person's sandboxed terminals (lib/terminal/terminal_manager.ts); killed on close. */
  terminals: TerminalManager;
}
