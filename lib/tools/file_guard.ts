// write_file and patch ask before writing where git keeps code it runs (hooks, a repository's
// config; lib/approvals/git_metadata.ts): the next `git commit` — the person's Commit button
// included — would run it. The request goes through the run's requestApproval, like a dangerous
// terminal command (pattern key `write_git_hooks`), so grants and the skip switch apply.
import { PATTERNS } from "../approvals/command_patterns.ts";
import { writesGitMetadata } from "../approvals/git_metadata.ts";
import type { ToolContext, ToolResult } from "./types.ts";

/** Wrap a file tool's execute: ask first when `args.path` is a git hook or config. */
export function askBeforeGitMetadata<A extends { path: string }>(
  tool: string,
  execute: (args: A, ctx: ToolContext) => Promise<ToolResult>,
): (args: A, ctx: ToolContext) => Promise<ToolResult> {
  return async (args, ctx) => {
    if (await writesGitMetadata(ctx.workspace, args.path)) {
      const description = PATTERNS.write_git_hooks.description;
      const command = `${tool} ${args.path}`;
      const decision = await ctx.requestApproval({
        command,
        description,
        patternKey: "write_git_hooks",
        patternKeys: ["write_git_hooks"],
      });
      if (!decision.approved) {
        const note = decision.message ? ` The user said: "${decision.message}"` : "";
        return {
          output: `BLOCKED: writing ${args.path} was not approved (${description}); the file ` +
            `was not changed.${note} Do not retry it unchanged.`,
          isError: true,
          denied: true,
        };
      }
      // Edit-then-run is for terminal commands: a write cannot become another command.
      if (decision.command !== undefined && decision.command !== command) {
        return {
          output: `BLOCKED: the approval of writing ${args.path} came with an edited command, ` +
            "which only the terminal tool can run; the file was not changed.",
          isError: true,
          denied: true,
        };
      }
    }
    return await execute(args, ctx);
  };
}
