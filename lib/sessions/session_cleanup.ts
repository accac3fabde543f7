// Sweeping empty conversations (the original's `/api/sessions/cleanup` and
// `/api/sessions/cleanup_zero_message`): a session with no message at all is removed, either
// every such session or only those still carrying the default title. Invariants: a session
// whose run is live is never removed (it is counted in `skipped_active`); a delegate's hidden
// child session is not the user's to sweep; removal goes through the one deleteSession (rows,
// attachments, the sidebar's change event) and the session's terminals close with it.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { deleteSession, UNTITLED } from "./sessions.ts";
import { sweepOrphanDrafts } from "./composer_drafts.ts";
import { sharedFilesDir } from "../settings/config.ts";

export interface CleanupResult {
  cleaned: number;
  skipped_active: number;
}

export interface CleanupDeps {
  db: AsyncQueries;
  /** Where session attachments live (sharedFilesDir of the config). */
  filesDir: string;
  /** Close the session's terminals before its rows go. */
  closeTerminals(sessionId: string): Promise<void>;
}

/**
 * Remove the sessions without messages: all of them (`zeroOnly`), or only those still titled
 * "Untitled" (the original's plain cleanup).
 */
export async function cleanupEmptySessions(
  deps: CleanupDeps,
  opts: { zeroOnly: boolean },
): Promise<CleanupResult> {
  const rows = await deps.db.all<{ session_id: string; title: string; active_stream_id: string }>(
    sql`SELECT s.session_id, s.title, s.active_stream_id FROM sessions s
        WHERE s.message_count = 0 AND s.delegate_call_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.session_id)`,
  );
  const result: CleanupResult = { cleaned: 0, skipped_active: 0 };
  for (const row of rows) {
    if (!opts.zeroOnly && row.title !== UNTITLED) continue;
    if (row.active_stream_id) {
      result.skipped_active++;
      continue;
    }
    await deps.closeTerminals(row.session_id);
    if (await deleteSession(deps.db, deps.filesDir, row.session_id)) result.cleaned++;
  }
  await sweepOrphanDrafts(deps.db);
  return result;
}

/** The sweep over an app's own parts (its database, files directory and terminals). */
export function sweepEmptySessions(
  app: {
    db: AsyncQueries;
    config: { stateDir: string; sharedDir?: string };
    terminals: { closeSession(sessionId: string): Promise<void> };
  },
  opts: { zeroOnly: boolean },
): Promise<CleanupResult> {
  return cleanupEmptySessions({
    db: app.db,
    filesDir: sharedFilesDir(app.config),
    closeTerminals: (id) => app.terminals.closeSession(id),
  }, opts);
}
