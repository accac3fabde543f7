// The per-app state behind the agent's tools: the file-sandbox worker pool, the terminal's
// command runner, the approval and clarify hubs and the todo lists. One instance per app
// (AppContext.tools), closed with the app: workers terminated, running commands killed.
import type { AppConfig } from "../settings/config.ts";
import { type ApprovalHub, closeApprovalHub, createApprovalHub } from "../approvals/approvals.ts";
import { type ClarifyHub, closeClarifyHub, createClarifyHub } from "../approvals/clarify.ts";
import { createFileSandboxPool, type FileSandboxPool } from "../sandbox/file_sandbox.ts";
import { type CommandRunner, createCommandRunner } from "../sandbox/command_runner.ts";
import { sandboxReadPaths } from "../sandbox/mount_plan.ts";
import {
  protectedFileIds,
  protectedPathsForWorkspace,
  secretPaths,
} from "../workspace/protected_paths.ts";
import type { Timers } from "../timers.ts";
import type { TodoItem } from "./todo.ts";

export interface ToolsRuntime {
  files: FileSandboxPool;
  commands: CommandRunner;
  approvals: ApprovalHub;
  clarify: ClarifyHub;
  /** The latest plan of each session (seeded from the journal after a restart). */
  todos: Map<string, TodoItem[]>;
  /** Terminal timeouts; config.yaml `terminal.timeout` (seconds) sets the default. */
  terminal: { defaultTimeoutMs: number; maxTimeoutMs: number };
  close(): Promise<void>;
}

export interface ToolsRuntimeOptions {
  timers?: Timers;
  /** null runs terminal commands without bubblewrap. */
  bwrapPath?: string | null;
  /** slirp4netns behind the per-session network switch; null keeps sandboxed commands offline. */
  slirpPath?: string | null;
  approvalTimeoutMs?: number;
  clarifyTimeoutMs?: number;
  fileCallTimeoutMs?: number;
  terminalHeadBytes?: number;
  terminalTailBytes?: number;
  /** More paths to mask inside the terminal sandbox (besides state dir, config, sockets). */
  hiddenPaths?: string[];
}

function seconds(section: unknown, key: string): number | undefined {
  if (!section || typeof section !== "object") return undefined;
  const v = (section as Record<string, unknown>)[key];
  return typeof v === "number" && v > 0 ? v * 1000 : undefined;
}

/**
 * Build the tools runtime for `config`. Timeouts come from options first, then config.yaml
 * (`approvals.timeout`, `clarify.timeout`, `terminal.timeout` in seconds), then defaults.
 */
export function createToolsRuntime(
  config: AppConfig,
  opts: ToolsRuntimeOptions = {},
): ToolsRuntime {
  const files = createFileSandboxPool({
    callTimeoutMs: opts.fileCallTimeoutMs,
    protectedPaths: (workspace) => protectedPathsForWorkspace(config, workspace),
    protectedFileIds: () => protectedFileIds(config),
  });
  const commands = createCommandRunner({
    bwrapPath: opts.bwrapPath,
    slirpPath: opts.slirpPath,
    headBytes: opts.terminalHeadBytes,
    tailBytes: opts.terminalTailBytes,
    // The same protected paths the file tools refuse, masked after the workspace bind.
    hiddenPaths: [...secretPaths(config), ...(opts.hiddenPaths ?? [])],
    readPaths: sandboxReadPaths(config.file).paths,
    env: { PATH: config.env.PATH, LANG: config.env.LANG, TERM: "dumb" },
  });
  const defaultTimeoutMs = seconds(config.file.terminal, "timeout") ?? 180_000;
  const approvals = createApprovalHub({
    file: config.file,
    timers: opts.timers,
    timeoutMs: opts.approvalTimeoutMs ?? seconds(config.file.approvals, "timeout"),
  });
  const clarify = createClarifyHub({
    timers: opts.timers,
    timeoutMs: opts.clarifyTimeoutMs ?? seconds(config.file.clarify, "timeout"),
  });
  return {
    files,
    commands,
    approvals,
    clarify,
    todos: new Map(),
    terminal: { defaultTimeoutMs, maxTimeoutMs: Math.max(defaultTimeoutMs, 600_000) },
    async close() {
      await closeApprovalHub(approvals);
      closeClarifyHub(clarify);
      files.close();
      await commands.close();
    },
  };
}
