// POST /api/file/save {session_id, path, content, expected_sha256?, expected_mtime?} →
// {ok, path, size, mtime, sha256}. When the file changed on disk since the editor opened it
// (its hash, or its mtime, differs from the expected one) → 409 {error, conflict, current_sha256,
// current_mtime}; the editor then offers overwrite (save without expectations) / reload / cancel.
// A path hostile on its face (`..`, absolute, NUL…) → 400 before any lookup.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { refuseHostilePath } from "../../../lib/workspace/workspace_paths.ts";
import { saveFile } from "../../../lib/workspace/file_ops.ts";

const Body = z.object({
  session_id: z.string(),
  path: z.string(),
  content: z.string(),
  expected_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  expected_mtime: z.number().finite().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const b = await readBody(req, Body);
    const session = await getSession(app.db, b.session_id);
    refuseHostilePath(b.path);
    return json(
      await saveFile(session.workspace, b.path, b.content, {
        expected_sha256: b.expected_sha256,
        expected_mtime: b.expected_mtime,
      }, app.config),
    );
  },
};
