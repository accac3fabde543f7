// GET /api/session?session_id=&messages=0|1&msg_limit=N&msg_before=IDX → {session}.
// msg_limit returns the last N messages (1–500) with _messages_truncated/_messages_offset.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { ValidationError } from "../../../lib/errors.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { fullSession, getSession } from "../../../lib/sessions/sessions.ts";

export const MAX_MSG_LIMIT = 500;

function intParam(url: URL, name: string, min: number, max: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ValidationError(
      `Invalid parameter "${name}": expected an integer from ${min} to ${max}, got "${raw}"`,
      name,
    );
  }
  return n;
}

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const id = requireParam(url, "session_id");
    if (url.searchParams.get("messages") === "0") {
      return json({ session: await getSession(app.db, id) });
    }
    const msgLimit = intParam(url, "msg_limit", 1, MAX_MSG_LIMIT);
    const msgBefore = intParam(url, "msg_before", 0, Number.MAX_SAFE_INTEGER);
    return json({ session: await fullSession(app.db, id, { msgLimit, msgBefore }) });
  },
};
