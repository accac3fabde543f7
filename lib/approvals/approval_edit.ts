// Edit-then-run: a person may change a pending terminal command before allowing it once. The
// edited command is judged by the command policy again (a hardline edit is refused, so an edit
// can never reach what the policy forbids) and only terminal commands can be edited.
import { ValidationError } from "../errors.ts";
import { classifyCommand } from "./command_policy.ts";

/** Longest edited command accepted (the terminal tool's own inputs are far shorter in practice). */
export const MAX_EDITED_COMMAND = 20_000;

/**
 * The edited command to run instead of `original`, or undefined when nothing was edited.
 * Throws ValidationError for an edit that cannot run (MCP call, not "once", hardline, empty).
 */
export function checkEditedCommand(
  input: { original: string; patternKey: string; choice: string; command?: string },
  policy: { configPath: string; home: string; workspace: string },
): string | undefined {
  if (input.command === undefined || input.choice === "deny") return undefined;
  const command = input.command.trim();
  if (command === input.original.trim()) return undefined;
  if (!command) throw new ValidationError("The edited command is empty", "command");
  if (command.length > MAX_EDITED_COMMAND) {
    throw new ValidationError(
      `The edited command is ${command.length} characters; at most ${MAX_EDITED_COMMAND}`,
      "command",
    );
  }
  if (input.patternKey.startsWith("mcp:")) {
    throw new ValidationError(
      "An MCP tool call cannot be edited, only allowed or denied",
      "command",
    );
  }
  if (input.choice !== "once") {
    throw new ValidationError(
      `An edited command can be allowed once only, not "${input.choice}"`,
      "choice",
    );
  }
  const verdict = classifyCommand(command, policy);
  if (verdict.tier === "hardline") {
    const why = verdict.matches.map((m) => m.description).join("; ");
    throw new ValidationError(`The edited command is never allowed (${why})`, "command");
  }
  return command;
}
