// POST /api/workspace/upload (multipart: session_id, path, file…) → one file's
// {filename, path, size, mime, is_image, extracted:false}, or {files, count} for several. The cap
// (HERMES_WEBUI_MAX_UPLOAD_MB) is enforced while the body streams → 413; a missing folder is made
// beneath the workspace, and one that leaves it (`..`, absolute, through a symlink) is a 400 that
// creates nothing; names are sanitized and never overwrite (`-1`, `-2`, …). A .zip / .tar /
// .tar.gz / .tgz is extracted into a new folder there: {…, path: that folder, extracted:true,
// extracted_files, extracted_count}, or {…, extracted:false, extract_error} (still a 200, as in the
// original) when it cannot be, with nothing of it kept.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { readUploadForm, uploadSessionId } from "../../../lib/workspace/uploads.ts";
import { storeWorkspaceUploads } from "../../../lib/workspace/workspace_upload.ts";

export const handler: Handlers = {
  async POST(req, { app, url }) {
    const form = await readUploadForm(req, app.config.maxUploadBytes);
    const session = await getSession(app.db, uploadSessionId(form, url));
    const path = form.get("path");
    const files = form.getAll("file").filter((f): f is File => f instanceof File);
    const results = await storeWorkspaceUploads(
      session.workspace,
      typeof path === "string" && path !== "" ? path : ".",
      files,
      app.config.maxUploadBytes,
      app.config,
    );
    return json(results.length === 1 ? results[0] : { files: results, count: results.length });
  },
};
