// GET /api/session/tool_diff?session_id=&tool_call_id= → {tool_call_id, diff}: the file change of
// a write_file/patch call (lib/tools/file_diff.ts), for the diff view; diff null when the call
// changed no text file. Unknown session or call → 404.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { NotFoundError } from "../../../lib/errors.ts";
import { parseJsonColumn, sql } from "../../../lib/storage/db.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const sessionId = requireParam(url, "session_id");
    const callId = requireParam(url, "tool_call_id");
    await getSession(app.db, sessionId);
    const row = await app.db.get<{ diff: string | null }>(
      sql`SELECT diff FROM tool_calls WHERE session_id = ${sessionId} AND tool_call_id = ${callId}`,
    );
    if (!row) throw new NotFoundError(`Tool call "${callId}" is not in this session`);
    return json({ tool_call_id: callId, diff: parseJsonColumn(row.diff, null) });
  },
};
