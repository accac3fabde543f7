// Browser-safe: imports nothing from Deno or the database.
// Whether a turn offers "Roll back this turn": only when it changed files. The checkpoints know
// (lib/checkpoints saves one only for a call that changed something): the server's page and a
// run ending here read them into the turn's `changedFiles`. Until they are read, a
// file-changing call that ran is taken as a change; one that was denied or never ran is not.
import type { ToolView } from "./transcript_turns.ts";

/** Tools whose calls are checkpointed (mirrors CHECKPOINTED_TOOLS on the server). */
const CHECKPOINTED = new Set(["write_file", "patch", "terminal"]);

/** A checkpointed call of `tools` ran (finished or failed: either may have changed files). */
export function ranFileTool(tools: readonly ToolView[]): boolean {
  return tools.some((x) =>
    CHECKPOINTED.has(x.name) && (x.status === "completed" || x.status === "error")
  );
}

/** Offer the turn's rollback: its checkpoints say it changed files (or, unread, it may have). */
export function offersTurnRollback(
  turn: { changedFiles?: boolean; tools: readonly ToolView[] },
): boolean {
  return turn.changedFiles ?? ranFileTool(turn.tools);
}
