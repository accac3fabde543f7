// What happens to a standing goal after each turn: the evaluator's verdict is recorded, the
// budgets are charged, and the goal stops (met, blocked, out of turns or tokens, or stalled) or
// the next turn starts by itself with a continuation prompt and a `goal_continue` event.
// Invariants: only a turn that ended `done` is evaluated; a goal is never continued while an
// approval is pending or another run holds the session; every decision is written to the goal
// row before anything starts, so a restart never repeats or loses it.
import type { EngineHost } from "../engine/engine_host.ts";
import type { RunManager } from "../engine/run_manager.ts";
import { sql } from "../storage/db.ts";
import { getGoal, type Goal, updateGoal } from "./goal_store.ts";
import { evaluateGoal, type EvaluateOptions } from "./evaluator.ts";
import type { Verdict } from "./verdict.ts";

export interface GoalApp extends EngineHost {
  runs: RunManager;
}

export type GoalDecision =
  | { action: "none"; reason: string }
  | { action: "stop"; goal: Goal }
  | { action: "continue"; goal: Goal; stream_id: string };

/** The user message that starts a turn the goal asked for. */
export function continuationPrompt(goal: Goal, reason: string): string {
  return `Continue working toward the goal: ${goal.goal}\n` +
    `(Turn ${goal.turns_used + 1} of ${goal.max_turns}. Last check: ${reason}) ` +
    `If the goal is already met, say so plainly; if you need the user, ask.`;
}

async function pendingApprovals(app: EngineHost, sessionId: string): Promise<number> {
  const row = await app.db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM approvals WHERE session_id = ${sessionId} AND status = 'pending'`,
  );
  return Number(row?.n ?? 0);
}

async function runTokens(app: EngineHost, streamId: string): Promise<number> {
  const row = await app.db.get<{ t: number }>(
    sql`SELECT COALESCE(SUM(input_tokens + output_tokens), 0) AS t FROM usage
        WHERE stream_id = ${streamId}`,
  );
  return Number(row?.t ?? 0);
}

/** Judge the goal after the run `streamId` of `sessionId` ended with `status`. */
export async function afterTurn(
  app: GoalApp,
  run: { sessionId: string; streamId: string; status: string },
  opts: EvaluateOptions = {},
): Promise<GoalDecision> {
  const goal = await getGoal(app.db, run.sessionId);
  if (!goal || goal.status !== "active") return { action: "none", reason: "no active goal" };
  if (run.status !== "done") return { action: "none", reason: `the turn ended ${run.status}` };
  const now = () => app.clock();
  const spent = await runTokens(app, run.streamId);
  let verdict: Verdict;
  let evalTokens = 0;
  try {
    ({ verdict, tokens: evalTokens } = await evaluateGoal(app, run.sessionId, goal, opts));
  } catch (err) {
    // A failed evaluation counts as a turn without progress: a broken evaluator must not loop.
    verdict = {
      verdict: "continue",
      reason: `the goal could not be evaluated (${(err as Error)?.message ?? err})`,
      progress: false,
      subgoals: goal.subgoals,
    };
  }
  const turns = goal.turns_used + 1;
  const tokens = goal.tokens_used + spent + evalTokens;
  const stalls = verdict.progress ? 0 : goal.no_progress + 1;
  const base = {
    turns_used: turns,
    tokens_used: tokens,
    no_progress: stalls,
    last_verdict: verdict.verdict,
    last_reason: verdict.reason,
    subgoals: verdict.subgoals.length ? verdict.subgoals : goal.subgoals,
  };
  const stop = async (status: Goal["status"], paused_reason: string | null) => ({
    action: "stop" as const,
    goal: (await updateGoal(app.db, run.sessionId, { ...base, status, paused_reason }, now()))!,
  });
  if (verdict.verdict === "met") return stop("done", null);
  if (verdict.verdict === "blocked") return stop("blocked", verdict.reason);
  if (turns >= goal.max_turns) {
    return stop("paused", `turn budget exhausted (${turns}/${goal.max_turns})`);
  }
  if (tokens >= goal.max_tokens) {
    return stop("paused", `token budget exhausted (${tokens}/${goal.max_tokens})`);
  }
  if (stalls >= goal.max_no_progress) {
    return stop("paused", `no progress in ${stalls} evaluations`);
  }
  const updated =
    (await updateGoal(app.db, run.sessionId, { ...base, paused_reason: null }, now()))!;
  // The run that just ended must have let go of the session, and nothing may be waiting on the
  // user, before the goal starts the next turn by itself.
  await app.runs.get(run.streamId)?.done;
  if (await pendingApprovals(app, run.sessionId) > 0) {
    return { action: "none", reason: "an approval is pending" };
  }
  const started = await app.runs.start(app, {
    sessionId: run.sessionId,
    message: continuationPrompt(updated, verdict.reason),
  });
  app.runs.get(started.stream_id)?.emit({
    event: "goal_continue",
    data: {
      session_id: run.sessionId,
      goal: updated.goal,
      turn: updated.turns_used + 1,
      max_turns: updated.max_turns,
      reason: verdict.reason,
    },
  });
  return { action: "continue", goal: updated, stream_id: started.stream_id };
}
