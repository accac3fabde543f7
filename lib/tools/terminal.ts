// The `terminal` tool: run a bash command in the workspace. Order of checks: the command policy
// (lib/approvals/command_policy.ts) refuses hardline commands outright; dangerous ones go through the
// run's requestApproval (session grants, allowlist and the skip switch are decided there); then
// the command runs under bubblewrap when available, with a timeout and a head+tail output cap.
// The policy judges the command against the workspace on disk: from the workdir, with the files
// changed since the session's last approval of changed code counting as the agent's.
import { z } from "zod";
import { type Classification, classifyCommandInWorkspace } from "../approvals/command_policy.ts";
import type { CommandRunner } from "../sandbox/command_runner.ts";
import { resolveInWorkspace } from "../workspace/workspace_paths.ts";
import { defineTool, type ToolDefinition, type ToolResult } from "./types.ts";

export interface TerminalToolDeps {
  commands: CommandRunner;
  configPath: string;
  home: string;
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  /**
   * Since when (ms) a workspace file counts as changed by the agent: the session's last
   * approval of running changed code, or its start (lib/approvals/approvals.ts
   * changedCodeBaseline). Without it every file counts as changed.
   */
  changedSince?(sessionId: string): Promise<number>;
}

export function terminalTool(deps: TerminalToolDeps): ToolDefinition {
  const maxSeconds = Math.floor(deps.maxTimeoutMs / 1000);
  return defineTool({
    name: "terminal",
    description: "Run a bash command in the workspace (the working directory) and return its " +
      "combined stdout and stderr with the exit code. Non-interactive: no stdin, no TTY. " +
      `Default timeout ${Math.round(deps.defaultTimeoutMs / 1000)} s (max ${maxSeconds} s). ` +
      "Long output keeps its beginning and end. Dangerous commands (recursive rm, force push, " +
      "sudo, …) need the user's approval; catastrophic ones (rm -rf /, mkfs on a disk, " +
      "shutdown, …) are always refused. The network may be disabled by the sandbox.",
    parameters: z.object({
      command: z.string().min(1).describe("The bash command line to run."),
      timeout: z.number().int().min(1).max(maxSeconds).optional()
        .describe("Timeout in seconds."),
      workdir: z.string().optional()
        .describe("Working directory relative to the workspace root (default .)."),
    }),
    async execute(args, ctx): Promise<ToolResult> {
      const judge = async (command: string): Promise<Classification> =>
        classifyCommandInWorkspace(command, {
          configPath: deps.configPath,
          home: deps.home,
          workspace: ctx.workspace,
          cwd: args.workdir ?? ".",
          changedSince: (await deps.changedSince?.(ctx.sessionId)) ?? 0,
        });
      const verdict = await judge(args.command);
      if (verdict.tier === "hardline") {
        const why = verdict.matches.filter((m) => m.pattern_key).map((m) => m.description);
        return {
          output: `BLOCKED: this command is never allowed (${why.join("; ")}). It was not run, ` +
            "and no approval can enable it. Find a safer way to reach the goal, or ask the " +
            "user to run it themselves.",
          isError: true,
          denied: true,
        };
      }
      // A grant that answered without asking is named in the output (the tool card shows it).
      let rule: string | undefined;
      let command = args.command;
      let editNote = "";
      if (verdict.tier === "dangerous") {
        const decision = await ctx.requestApproval({
          command: args.command,
          description: verdict.matches.map((m) => m.description).join("; "),
          patternKey: verdict.matches[0].pattern_key,
          patternKeys: verdict.matches.map((m) => m.pattern_key),
        });
        if (!decision.approved) {
          const note = decision.message ? ` The user said: "${decision.message}"` : "";
          return {
            output: `BLOCKED: the command was not approved (${
              verdict.matches.map((m) => m.description).join("; ")
            }) and was not run.${note} Do not retry it unchanged.`,
            isError: true,
            denied: true,
          };
        }
        rule = decision.rule;
        // Edit-then-run: the person changed the command before allowing it. It was judged on
        // approval; judged again here so no path runs a hardline edit. The agent is told.
        if (decision.command && decision.command !== args.command) {
          const again = await judge(decision.command);
          if (again.tier === "hardline") {
            return {
              output: "BLOCKED: the user's edited command is never allowed and was not run.",
              isError: true,
              denied: true,
            };
          }
          command = decision.command;
          editNote = `[the user edited the command before allowing it; this ran instead:\n` +
            `${command}]\n`;
        }
      }
      let cwd: string;
      let workspace: string;
      try {
        workspace = await Deno.realPath(ctx.workspace);
        cwd = await resolveInWorkspace(workspace, args.workdir ?? ".", { mustExist: true });
      } catch {
        return {
          output: `workdir "${args.workdir}" is not a directory in the workspace.`,
          isError: true,
        };
      }
      const timeoutMs = Math.min(
        deps.maxTimeoutMs,
        args.timeout ? args.timeout * 1000 : deps.defaultTimeoutMs,
      );
      const r = await deps.commands.run({
        command,
        workspace,
        cwd,
        timeoutMs,
        allowNetwork: ctx.allowNetwork,
        signal: ctx.signal,
      });
      let body = r.output.trimEnd() === "" ? "(no output)" : r.output.trimEnd();
      if (r.networkUnavailable) {
        body = "[the network is on for this session, but this host cannot give sandboxed " +
          "commands a network safely (slirp4netns is not installed): the command ran offline]\n" +
          body;
      }
      if (rule) body = `[allowed by rule \`${rule}\`]\n${body}`;
      body = editNote + body;
      let status: string;
      if (r.timedOut) {
        status = `[timed out after ${Math.round(timeoutMs / 1000)} s; the command was killed]`;
      } else if (r.cancelled) status = "[cancelled]";
      else if (r.signal) status = `[killed by ${r.signal}]`;
      else status = `[exit code ${r.exitCode}]`;
      return {
        output: `${body}\n${status}`,
        isError: r.timedOut || r.cancelled || r.exitCode !== 0,
      };
    },
  });
}
