// GET /api/file/raw?session_id=&path=&download=1 → the file's bytes with its MIME type.
// Images, media, PDF and plain text may show inline; HTML, SVG, XML and unknown types are
// always attachments, and every response but PDF is sandboxed by CSP (no script runs in our
// origin even when the file is opened in place). Scripts (.js/.mjs/.cjs) are
// application/octet-stream, as in the original: bytes, never a type a browser would execute.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { openRawFile } from "../../../lib/workspace/files.ts";
import { requireParam } from "../../../lib/server/http.ts";
import { contentDisposition, servePolicy } from "../../../lib/workspace/mime.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";

const SANDBOX_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; " +
  "style-src 'unsafe-inline'; frame-ancestors 'self'";

export const handler: Handlers = {
  async GET(req, { app, url }) {
    const session = await getSession(app.db, requireParam(url, "session_id"));
    const path = requireParam(url, "path");
    const download = url.searchParams.get("download") === "1";
    const { file, name, size } = await openRawFile(session.workspace, path, {
      protect: app.config,
    });
    const policy = servePolicy(name, download);
    const script = /\.(m|c)?js$/i.test(name);
    const headers: Record<string, string> = {
      "content-type": script ? "application/octet-stream" : policy.contentType,
      "content-length": String(size),
      "content-disposition": contentDisposition(policy.inline ? "inline" : "attachment", name),
      "cache-control": "no-store",
    };
    if (policy.sandbox) headers["content-security-policy"] = SANDBOX_CSP;
    if (req.method === "HEAD") {
      file.close();
      return new Response(null, { headers });
    }
    return new Response(file.readable, { headers });
  },
};
