// Browser-safe: imports nothing from Deno or the database.
// How a session's standing goal reads in the top bar's quiet chip: GET /api/goal's `goal` shape
// and the few strings the server render (components/Topbar.tsx) and the browser update
// (lib/browser/goal_chip.ts) share, so both always say the same thing.

/** GET /api/goal's `goal` (lib/goals/goal_store.ts goalPayload). */
export interface GoalView {
  goal: string;
  status: "active" | "paused" | "blocked" | "done";
  turns_used: number;
  max_turns: number;
  last_verdict: string | null;
  last_reason: string | null;
  paused_reason: string | null;
  subgoals: Array<{ title: string; done: boolean }>;
}

/** "Goal · 2/20" (turns used of the budget). */
export function goalChipLabel(g: GoalView): string {
  return `Goal · ${g.turns_used}/${g.max_turns}`;
}

/** The chip's hover text: the status, then the goal itself. */
export function goalChipTitle(g: GoalView): string {
  return `Goal (${g.status}): ${g.goal}`;
}

/** The evaluator's last word (or why it stopped), for the popover; "" before the first check. */
export function goalReasonLine(g: GoalView): string {
  if ((g.status === "paused" || g.status === "blocked") && g.paused_reason) {
    return `${g.status === "blocked" ? "Blocked" : "Paused"}: ${g.paused_reason}`;
  }
  return g.last_reason ? `Last check: ${g.last_reason}` : "";
}
