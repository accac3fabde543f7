// The contract between the engine and the agent's tools. A tool is a name, a description, a
// zod schema for its arguments and an `execute` that never throws for expected failures: it
// returns `{output, isError: true}` so the model can read what went wrong and try again.
import type { z } from "zod";
import type { ChatEvent, FileDiff } from "../shared/chat_events.ts";

/** What the engine hands a tool for one call: where it may act, and how to talk to the user. */
export interface ToolContext {
  sessionId: string;
  streamId: string;
  /** The session's workspace, as a real (symlink-free) absolute path. */
  workspace: string;
  /** Aborted when the run is cancelled; long tools (terminal, clarify) must honour it. */
  signal: AbortSignal;
  /** Emit an event into the run's stream (journaled and forwarded to SSE by the engine). */
  emit(event: ChatEvent): void;
  /**
   * Ask the user to approve a dangerous command. Resolves when they answer, when the
   * approval expires (approved: false) or when the run is cancelled (approved: false).
   */
  requestApproval(req: {
    command: string;
    description: string;
    patternKey: string;
    patternKeys: string[];
  }): Promise<{ approved: boolean; message?: string; rule?: string; command?: string }>;
  /** Ask the user a question (optionally with choices) and wait for the answer. */
  askClarify(question: string, choices?: string[]): Promise<string>;
  /** Whether `terminal` may reach the network (bubblewrap otherwise unshares it). */
  allowNetwork: boolean;
  /**
   * Run a sub-task in a hidden child run (lib/engine/child_run.ts) and return its final
   * answer. Provided by the engine to top-level runs only: absent inside a child (no recursion).
   */
  runChild?(req: ChildTaskRequest): Promise<ToolResult>;
}

/** A `delegate` call: the task, optional context, and the tools the child may use. */
export interface ChildTaskRequest {
  task: string;
  context?: string;
  /** A subset of the parent's tool names; omitted = all of them (never `delegate`). */
  tools?: string[];
}

/** A tool's answer, fed back to the model as the tool message. */
export interface ToolResult {
  output: string;
  isError?: boolean;
  /** Extension: the call was refused by the user or by policy (tool-call status `denied`). */
  denied?: boolean;
  /** Extension: the file change (write_file, patch), for the diff view; never sent to the model. */
  diff?: FileDiff;
}

// deno-lint-ignore no-explicit-any
export interface ToolDefinition<A = any> {
  name: string;
  /** Written for the model: what the tool does, when to use it, its limits. */
  description: string;
  parameters: z.ZodType<A>;
  execute(args: A, ctx: ToolContext): Promise<ToolResult>;
}

/** Declare a tool with its argument type inferred from the zod schema. */
export function defineTool<A>(def: ToolDefinition<A>): ToolDefinition<A> {
  return def;
}
