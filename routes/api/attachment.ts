// GET /api/attachment?session_id=&name= → one of the session's uploaded attachments (its
// stored file name, as the message records it), for the thumbnails and chips of sent
// messages. Served like /api/media: images inline with their type, anything risky as an
// attachment, under `CSP: sandbox` (raster images: a no-script CSP, so a tab can show them),
// never executable. Unknown session or file → 404.
import { sharedFilesDir } from "../../lib/settings/config.ts";
import type { Handlers } from "../../lib/server/file_router.ts";
import { requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";
import { resolveAttachment } from "../../lib/workspace/uploads.ts";
import { contentDisposition } from "../../lib/workspace/mime.ts";
import { MEDIA_CSP, mediaPolicy } from "../../lib/workspace/media_policy.ts";

export const handler: Handlers = {
  async GET(req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    const name = requireParam(url, "name");
    const real = await resolveAttachment(sharedFilesDir(app.config), session.session_id, name);
    const info = await Deno.stat(real);
    const base = real.split("/").pop() || "file";
    const policy = mediaPolicy(base);
    // A raster image opened in its own tab is shown by the browser's image viewer, which must
    // load the image from our origin: a sandbox (opaque origin) would block it. Raster images
    // run no script; SVG and everything else keep the sandbox.
    const raster = /^image\/(png|jpeg|gif|webp|avif|bmp)$/.test(policy.contentType);
    const headers: Record<string, string> = {
      "content-type": policy.contentType,
      "content-disposition": contentDisposition(policy.inline ? "inline" : "attachment", base),
      "content-security-policy": raster
        ? "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
        : MEDIA_CSP,
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=300",
      "content-length": String(info.size),
    };
    if (req.method === "HEAD") return new Response(null, { headers });
    const file = await Deno.open(real, { read: true });
    return new Response(file.readable, { headers });
  },
};
