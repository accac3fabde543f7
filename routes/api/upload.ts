// POST /api/upload (multipart: session_id, file) → {filename, path, size, mime, is_image}.
// The cap (HERMES_WEBUI_MAX_UPLOAD_MB) is enforced while the body streams in → 413; no file →
// 400; unknown session → 404. Files land in the session's attachments folder, never overwritten.
import { sharedFilesDir } from "../../lib/settings/config.ts";
import type { Handlers } from "../../lib/server/file_router.ts";
import { ValidationError } from "../../lib/errors.ts";
import { json } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";
import { readUploadForm, storeUpload, uploadSessionId } from "../../lib/workspace/uploads.ts";

export const handler: Handlers = {
  async POST(req, { app, url }) {
    const form = await readUploadForm(req, app.config.maxUploadBytes);
    const session = await getSession(app.db, uploadSessionId(form, url));
    const file = form.get("file");
    if (!(file instanceof File)) {
      throw new ValidationError('No file in the upload (expected a field named "file")', "file");
    }
    const stored = await storeUpload(
      sharedFilesDir(app.config),
      session.session_id,
      file,
      app.config.maxUploadBytes,
    );
    return json(stored);
  },
};
