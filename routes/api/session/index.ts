// GET /api/session?session_id=&messages=0|1&msg_limit=N&msg_before=IDX → {session}.
// msg_limit returns the last N messages (1–500) with _messages_truncated/_messages_offset.
// With `api_redact_enabled` (the default) credentials in the answer are masked
// (lib/security/api_redaction.ts), as the original's redact_session_data does.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { ValidationError } from "../../../lib/errors.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { fullSession, getSession } from "../../../lib/sessions/sessions.ts";
import { readPreferences } from "../../../lib/settings/stored_settings.ts";
import { redactDeep } from "../../../lib/security/api_redaction.ts";
import type { AsyncQueries } from "../../../lib/storage/db.ts";

/** The answer as the setting wants it: masked unless `api_redact_enabled` is off. */
async function redacted<T>(db: AsyncQueries, value: T): Promise<T> {
  return (await readPreferences(db)).api_redact_enabled === false ? value : redactDeep(value);
}

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
      return json({ session: await redacted(app.db, await getSession(app.db, id)) });
    }
    const msgLimit = intParam(url, "msg_limit", 1, MAX_MSG_LIMIT);
    const msgBefore = intParam(url, "msg_before", 0, Number.MAX_SAFE_INTEGER);
    const session = await fullSession(app.db, id, { msgLimit, msgBefore });
    return json({ session: await redacted(app.db, session) });
  },
};
