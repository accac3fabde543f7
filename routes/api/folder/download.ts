// GET /api/folder/download?session_id=&path= → application/zip of the folder, streamed as the
// client reads (never built in memory). Symlinks and protected paths are left out; a bad path
// is a 404 before any byte is sent.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { requireParam } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { zipFolderStream } from "../../../lib/workspace/folder_zip.ts";
import { contentDisposition } from "../../../lib/workspace/mime.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    const path = url.searchParams.get("path") || ".";
    const { name, stream } = await zipFolderStream(session.workspace, path, app.config);
    return new Response(stream, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": contentDisposition("attachment", name),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
};
