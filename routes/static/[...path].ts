// Static assets (CSS, fonts, built island bundles), resolved through lib/server/app_paths.ts so the
// same code serves them from a checkout, from a foreign working directory, from inside a
// `deno compile` binary (which embeds static/ via --include) and from a bundle.
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import type { Handlers } from "../../lib/server/file_router.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { appUrl } from "../../lib/server/app_paths.ts";

const STATIC_ROOT = fromFileUrl(appUrl("static/"));

const MIME: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

export const handler: Handlers = {
  async GET(req, { url }) {
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname.slice("/static/".length));
    } catch {
      throw new NotFoundError(); // malformed escapes (`%c0%ae`) name no file
    }
    const path = normalize(join(STATIC_ROOT, rel));
    if (
      rel.includes("\0") ||
      !path.startsWith(STATIC_ROOT.endsWith(sep) ? STATIC_ROOT : STATIC_ROOT + sep)
    ) {
      throw new NotFoundError();
    }
    let data: Uint8Array;
    try {
      data = await Deno.readFile(path);
    } catch {
      throw new NotFoundError();
    }
    // Built bundles carry a content hash in their name, so they may be cached for good.
    const immutable = rel.startsWith("_islands/") && /-[A-Z0-9]{8}\./i.test(rel);
    const etag = `"${data.byteLength.toString(16)}-${(await digest(data)).slice(0, 16)}"`;
    if (req.headers.get("if-none-match") === etag) {
      return new Response(null, { status: 304, headers: { etag } });
    }
    return new Response(data as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": MIME[extname(path)] ?? "application/octet-stream",
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        etag,
      },
    });
  },
};

async function digest(data: Uint8Array): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-1", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}
