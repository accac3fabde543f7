// Retry as the original's clients know it (POST /api/session/retry): the last user message and
// everything after it leave the transcript, and its text goes back to the caller, who sends it
// again (chat/start appends it then, so it is never in the transcript twice). Invariant: finding
// the last user message and cutting there happen in one transaction that holds the session's row,
// so of two retries at once the second sees what the first left: they never cut the same turn.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { Clock } from "../ids.ts";
import { truncateMessages } from "./messages.ts";

/** The original's answer when the transcript holds no user message (with status 200). */
export const NO_PREVIOUS_MESSAGE = "No previous message to retry.";

export interface RewoundTurn {
  /** The text of the user message that was taken out, to be sent again. */
  last_user_text: string;
  /** Messages removed: that user message and everything after it. */
  removed_count: number;
}

/**
 * Take the last turn out of `sessionId` for a retry. Null when there is no user message to
 * retry; 404 for an unknown session, 409 while a run holds it (its writes would race the cut).
 * The tool calls and kept answer variants of the removed turns go too: the turn that replaces
 * them gets a new id, so nothing would ever show them again.
 */
export function rewindLastTurn(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
): Promise<RewoundTurn | null> {
  return db.transaction(async (tx) => {
    // The row lock makes a concurrent retry wait for this one's commit, then read what it left
    // (SQLite's one connection already runs one transaction at a time).
    const lock = tx.backend === "postgres" ? sql` FOR UPDATE` : sql``;
    const session = await tx.get<{ active_stream_id: string | null }>(
      sql`SELECT active_stream_id FROM sessions WHERE session_id = ${sessionId}${lock}`,
    );
    if (!session) throw new NotFoundError(`Session "${sessionId}" not found`);
    if (session.active_stream_id) {
      throw new ConflictError(
        `Cannot retry the last turn of session "${sessionId}" while it is streaming`,
        { active_stream_id: session.active_stream_id },
      );
    }
    const last = await tx.get<{ idx: number; content: string }>(
      sql`SELECT idx, content FROM messages WHERE session_id = ${sessionId} AND role = 'user'
          ORDER BY idx DESC LIMIT 1`,
    );
    if (!last) return null;
    const turns = await tx.all<{ turn_id: string }>(
      sql`SELECT DISTINCT turn_id FROM messages
          WHERE session_id = ${sessionId} AND idx >= ${last.idx} AND turn_id IS NOT NULL`,
    );
    const removed = await truncateMessages(tx, sessionId, last.idx, clock());
    for (const { turn_id } of turns) {
      await tx.run(
        sql`DELETE FROM tool_calls WHERE session_id = ${sessionId} AND turn_id = ${turn_id}`,
      );
      await tx.run(
        sql`DELETE FROM message_variants WHERE session_id = ${sessionId} AND turn_id = ${turn_id}`,
      );
    }
    return { last_user_text: last.content, removed_count: removed };
  });
}
