// A session's own reasoning effort (`/reasoning <none|low|medium|high>`): stored in
// sessions.reasoning_effort and preferred by the engine over config.yaml's
// `reasoning_effort`. Invariants: only SESSION_EFFORTS are stored; null = use the config's.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { getSession } from "./sessions.ts";
import { ValidationError } from "../errors.ts";
import { publishSessionsChanged } from "./session_events.ts";

/** The levels a person picks per chat (the provider maps them: thinking budget, effort). */
export const SESSION_EFFORTS = ["none", "low", "medium", "high"] as const;
export type SessionEffort = typeof SESSION_EFFORTS[number];

/** The session's effort, or null when it follows the config. */
export async function sessionReasoning(
  db: AsyncQueries,
  sessionId: string,
): Promise<SessionEffort | null> {
  const row = await db.get<{ reasoning_effort: string | null }>(
    sql`SELECT reasoning_effort FROM sessions WHERE session_id = ${sessionId}`,
  );
  const v = row?.reasoning_effort ?? null;
  return (SESSION_EFFORTS as readonly string[]).includes(v ?? "") ? v as SessionEffort : null;
}

/** Set (or with null, "", "default" clear) the session's effort. Unknown levels → 400. */
export async function setSessionReasoning(
  db: AsyncQueries,
  sessionId: string,
  effort: string | null,
): Promise<SessionEffort | null> {
  await getSession(db, sessionId);
  const v = effort?.trim().toLowerCase() ?? "";
  const next = v === "" || v === "default" ? null : v;
  if (next !== null && !(SESSION_EFFORTS as readonly string[]).includes(next)) {
    throw new ValidationError(
      `Unknown reasoning effort "${effort}"; expected one of ${
        SESSION_EFFORTS.join(", ")
      } or default`,
      "effort",
    );
  }
  await db.run(
    sql`UPDATE sessions SET reasoning_effort = ${next} WHERE session_id = ${sessionId}`,
  );
  await publishSessionsChanged(db, "update", sessionId);
  return next as SessionEffort | null;
}
