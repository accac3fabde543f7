// The `delegate` tool: hand a self-contained sub-task to a child run with a fresh context and a
// subset of this agent's tools; its final report comes back as the result. The engine does the
// work (ToolContext.runChild, lib/engine/child_run.ts); a child gets no runChild, so no recursion.
import { z } from "zod";
import { defineTool, type ToolDefinition } from "./types.ts";

export const MAX_TASK_CHARS = 20_000;
export const MAX_CONTEXT_CHARS = 50_000;

export function delegateTool(): ToolDefinition {
  return defineTool({
    name: "delegate",
    description: "Run a self-contained sub-task in a separate child agent and get back its " +
      "final report. The child starts with a fresh context: it sees only `task` and " +
      "`context` (not this conversation), works in the same workspace and sandbox with the " +
      "tools listed in `tools` (a subset of yours; default all but delegate), needs the same " +
      "approvals, and has a limited number of steps. Use it for focused research or " +
      "exploration whose details would clutter this conversation.",
    parameters: z.object({
      task: z.string().trim().min(1).max(MAX_TASK_CHARS)
        .describe("What the child must do and what its report must contain."),
      tools: z.array(z.string().min(1).max(200)).max(100).optional()
        .describe("Names of the tools the child may use (a subset of yours)."),
      context: z.string().max(MAX_CONTEXT_CHARS).optional()
        .describe("Facts from this conversation the child needs (it sees nothing else)."),
    }),
    execute(args, ctx) {
      if (!ctx.runChild) {
        return Promise.resolve({
          output: "delegate is not available here (a delegated task cannot delegate again).",
          isError: true,
        });
      }
      return ctx.runChild(args);
    },
  });
}
