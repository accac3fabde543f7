// GET /api/session/export?session_id=&format=json|md|html|jsonl → attachment hermes-<sid>.<ext>.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { ValidationError } from "../../../lib/errors.ts";
import { requireParam } from "../../../lib/server/http.ts";
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportSession,
} from "../../../lib/sessions/session_export.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const id = requireParam(url, "session_id");
    const format = (url.searchParams.get("format") || "json") as ExportFormat;
    if (!EXPORT_FORMATS.includes(format)) {
      throw new ValidationError(
        `Invalid parameter "format": expected json, md, html or jsonl, got "${format}"`,
        "format",
      );
    }
    const file = await exportSession(app.db, app.clock, id, format);
    return new Response(file.body, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    });
  },
};
