// GET /api/file?session_id=&path=&head=1 → {path, content, size, lines, mtime, sha256}: a text
// file of the session's workspace for the viewer (UTF-8 with replacement; over 400,000 bytes →
// 413, or with head=1 its first whole lines and `truncated`/`readonly`: the editor shows them
// read-only). `sha256`/`mtime` are the base a save's conflict check compares with.
import type { Handlers } from "../../lib/server/file_router.ts";
import { readTextFile } from "../../lib/workspace/files.ts";
import { json, requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    const path = requireParam(url, "path");
    return json(
      await readTextFile(session.workspace, path, {
        protect: app.config,
        head: url.searchParams.get("head") === "1",
      }),
    );
  },
};
