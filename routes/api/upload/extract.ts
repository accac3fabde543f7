// POST /api/upload/extract (multipart: session_id, path?, file) → {ok, extracted, files, dest,
// skipped}: a zip / tar / tar.gz unpacked into a new folder named after it (inside `path`,
// default the workspace root). Entry count and expanded size are capped (413); absolute, `..`
// and outward-symlink entries refuse the whole archive (400) and leave nothing behind.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { ValidationError } from "../../../lib/errors.ts";
import { json } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { readUploadForm, uploadSessionId } from "../../../lib/workspace/uploads.ts";
import { extractArchive } from "../../../lib/workspace/archive_extract.ts";

export const handler: Handlers = {
  async POST(req, { app, url }) {
    const form = await readUploadForm(req, app.config.maxUploadBytes);
    const session = await getSession(app.db, uploadSessionId(form, url));
    const file = form.get("file");
    if (!(file instanceof File) || file.name === "") {
      throw new ValidationError('No file in the upload (expected a field named "file")', "file");
    }
    const path = form.get("path");
    return json(
      await extractArchive(
        session.workspace,
        typeof path === "string" && path !== "" ? path : ".",
        file.name,
        new Uint8Array(await file.arrayBuffer()),
        { protect: app.config },
      ),
    );
  },
};
