// A session's standing goal in the `goals` table: the objective, its status, the turn and token
// budgets, the count of evaluations without progress, the evaluator's last verdict and reason and
// its subgoals. Invariants: one goal per session (setting a new one replaces it); status moves
// only through these functions; the row survives restarts; "cleared" rows are deleted.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { ValidationError } from "../errors.ts";

export type GoalStatus = "active" | "paused" | "done" | "blocked";

export interface Subgoal {
  title: string;
  done: boolean;
}

export interface Goal {
  session_id: string;
  goal: string;
  status: GoalStatus;
  turns_used: number;
  max_turns: number;
  tokens_used: number;
  max_tokens: number;
  no_progress: number;
  max_no_progress: number;
  last_verdict: string | null;
  last_reason: string | null;
  paused_reason: string | null;
  subgoals: Subgoal[];
  created_at: number;
  updated_at: number;
}

export interface GoalBudgets {
  max_turns: number;
  max_tokens: number;
  max_no_progress: number;
}

/** The original's default turn budget is 20; tokens and stalls are ours. */
export const DEFAULT_BUDGETS: GoalBudgets = {
  max_turns: 20,
  max_tokens: 2_000_000,
  max_no_progress: 3,
};

/** Budgets from config.yaml `goals: {max_turns, max_tokens, max_no_progress}`, else defaults. */
export function budgetsFromConfig(file: Record<string, unknown>): GoalBudgets {
  const g = file.goals && typeof file.goals === "object"
    ? file.goals as Record<string, unknown>
    : {};
  const pick = (k: keyof GoalBudgets) => {
    const n = Number(g[k]);
    return Number.isInteger(n) && n > 0 ? n : DEFAULT_BUDGETS[k];
  };
  return {
    max_turns: pick("max_turns"),
    max_tokens: pick("max_tokens"),
    max_no_progress: pick("max_no_progress"),
  };
}

function toGoal(r: Record<string, unknown>): Goal {
  let subgoals: Subgoal[] = [];
  try {
    subgoals = JSON.parse(String(r.subgoals ?? "[]"));
  } catch {
    subgoals = [];
  }
  return { ...(r as unknown as Goal), subgoals };
}

// Named, never `*`: on PostgreSQL every table also has a `rowid` that must not reach a Goal.
const COLUMNS = sql.raw(
  `session_id, goal, status, turns_used, max_turns, tokens_used, max_tokens, no_progress,
   max_no_progress, last_verdict, last_reason, paused_reason, subgoals, created_at, updated_at`,
);

export async function getGoal(db: AsyncQueries, sessionId: string): Promise<Goal | null> {
  const r = await db.get(sql`SELECT ${COLUMNS} FROM goals WHERE session_id = ${sessionId}`);
  return r ? toGoal(r) : null;
}

/** Set a new active goal for the session, replacing any other. */
export async function setGoal(
  db: AsyncQueries,
  sessionId: string,
  text: string,
  budgets: GoalBudgets,
  now: number,
): Promise<Goal> {
  const goal = text.trim();
  if (!goal) throw new ValidationError("goal text is empty");
  if (goal.length > 4000) throw new ValidationError("A goal is at most 4,000 characters");
  // A new goal replaces the old one whole (the columns not listed go back to NULL), written as
  // ON CONFLICT because PostgreSQL has no INSERT OR REPLACE; RETURNING reads what was written.
  const r = await db.get(
    sql`INSERT INTO goals (session_id, goal, status, turns_used, max_turns, tokens_used,
          max_tokens, no_progress, max_no_progress, subgoals, created_at, updated_at)
        VALUES (${sessionId}, ${goal}, 'active', 0, ${budgets.max_turns}, 0, ${budgets.max_tokens},
          0, ${budgets.max_no_progress}, '[]', ${now}, ${now})
        ON CONFLICT (session_id) DO UPDATE SET goal = excluded.goal, status = excluded.status,
          turns_used = excluded.turns_used, max_turns = excluded.max_turns,
          tokens_used = excluded.tokens_used, max_tokens = excluded.max_tokens,
          no_progress = excluded.no_progress, max_no_progress = excluded.max_no_progress,
          last_verdict = NULL, last_reason = NULL, paused_reason = NULL,
          subgoals = excluded.subgoals, created_at = excluded.created_at,
          updated_at = excluded.updated_at
        RETURNING ${COLUMNS}`,
  );
  return toGoal(r!);
}

/** The columns a patch may change (everything but the key and the creation time). */
const PATCHABLE = [
  "goal",
  "status",
  "turns_used",
  "max_turns",
  "tokens_used",
  "max_tokens",
  "no_progress",
  "max_no_progress",
  "last_verdict",
  "last_reason",
  "paused_reason",
  "subgoals",
] as const satisfies readonly (keyof Goal)[];

/** Change fields of the session's goal; null when there is none. */
export async function updateGoal(
  db: AsyncQueries,
  sessionId: string,
  patch: Partial<Omit<Goal, "session_id" | "created_at" | "updated_at">>,
  now: number,
): Promise<Goal | null> {
  // Only the patched columns are written, in one statement: a concurrent patch of other fields
  // (the user pausing while the runner records a verdict) is never overwritten by a stale read.
  const sets = PATCHABLE.filter((k) => patch[k] !== undefined).map((k) =>
    sql`${sql.ref(k)} = ${k === "subgoals" ? JSON.stringify(patch.subgoals) : patch[k]}`
  );
  const r = await db.get(
    sql`UPDATE goals SET ${sql.join([...sets, sql`updated_at = ${now}`])}
        WHERE session_id = ${sessionId}
        RETURNING ${COLUMNS}`,
  );
  return r ? toGoal(r) : null;
}

/**
 * Put back the goal a session had before `setGoal` replaced it (`null`: it had none), when the
 * new goal's first turn could not start: a refused `/goal` leaves nothing behind.
 */
export async function restoreGoal(
  db: AsyncQueries,
  sessionId: string,
  previous: Goal | null,
  now: number,
): Promise<void> {
  if (!previous) {
    await clearGoal(db, sessionId);
    return;
  }
  const { session_id: _id, created_at: _created, updated_at: _updated, ...fields } = previous;
  await updateGoal(db, sessionId, fields, now);
}

export async function clearGoal(db: AsyncQueries, sessionId: string): Promise<boolean> {
  const { changes } = await db.run(sql`DELETE FROM goals WHERE session_id = ${sessionId}`);
  return changes > 0;
}

/** The original's `goal` object in API answers. */
export function goalPayload(g: Goal | null) {
  if (!g) return null;
  return {
    goal: g.goal,
    status: g.status,
    turns_used: g.turns_used,
    max_turns: g.max_turns,
    tokens_used: g.tokens_used,
    max_tokens: g.max_tokens,
    last_verdict: g.last_verdict,
    last_reason: g.last_reason,
    paused_reason: g.paused_reason,
    subgoals: g.subgoals,
  };
}
