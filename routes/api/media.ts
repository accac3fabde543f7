// GET /api/media?path=&session_id= → a workspace media file: inline images with their MIME,
// audio and video with byte ranges (206/416); HTML, SVG and XML only as attachments (never
// inline), source files (.js/.ts/.tsx…) as text/plain attachments, never executable; every
// answer under `CSP: sandbox` and `X-Content-Type-Options: nosniff`. `path` is relative to the
// session's workspace (or the default one), or absolute inside a listed workspace. The
// console's own secrets (state dir, config, .env, credentials) → 403; no path → 400; anything
// outside the workspaces or missing → 404. Paths resolve through lib/workspace/workspace_paths.ts.
import { isAbsolute, relative } from "node:path";
import type { Handlers } from "../../lib/server/file_router.ts";
import { ForbiddenError, NotFoundError } from "../../lib/errors.ts";
import { requireParam } from "../../lib/server/http.ts";
import { getSession } from "../../lib/sessions/sessions.ts";
import { resolveInWorkspace } from "../../lib/workspace/workspace_paths.ts";
import { listWorkspaces } from "../../lib/workspace/workspaces.ts";
import { contentDisposition } from "../../lib/workspace/mime.ts";
import { MEDIA_CSP, mediaPolicy, parseRange } from "../../lib/workspace/media_policy.ts";
import {
  isProtectedPath,
  isWithinPath,
  realSecretPaths,
} from "../../lib/workspace/protected_paths.ts";

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.realPath(path);
  } catch {
    return null;
  }
}

export const handler: Handlers = {
  async GET(req, { app, url }) {
    const path = requireParam(url, "path");
    const sid = url.searchParams.get("session_id");
    const roots = sid
      ? [(await getSession(app.db, sid)).workspace]
      : (await listWorkspaces(app)).map((w) => w.path);
    const secrets = await realSecretPaths(app.config);

    let real: string | null = null;
    if (isAbsolute(path) && !path.includes("\0")) {
      const target = await realOrNull(path);
      if (target && isProtectedPath(target, secrets)) {
        throw new ForbiddenError("That file holds the console's secrets and is never served");
      }
      for (const root of roots) {
        const realRoot = await realOrNull(root);
        if (!target || !realRoot || !isWithinPath(target, realRoot)) continue;
        real = await resolveInWorkspace(realRoot, relative(realRoot, target) || ".");
        break;
      }
    } else {
      real = await resolveInWorkspace(roots[0], path);
    }
    if (!real) throw new NotFoundError();
    if (isProtectedPath(real, secrets)) {
      throw new ForbiddenError("That file holds the console's secrets and is never served");
    }
    const info = await Deno.stat(real);
    if (!info.isFile) throw new NotFoundError();

    const name = real.split("/").pop() || "file";
    const policy = mediaPolicy(name);
    const headers: Record<string, string> = {
      "content-type": policy.contentType,
      "content-disposition": contentDisposition(policy.inline ? "inline" : "attachment", name),
      "content-security-policy": MEDIA_CSP,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    };
    if (policy.ranges) headers["accept-ranges"] = "bytes";
    const range = policy.ranges
      ? parseRange(req.headers.get("range"), info.size)
      : { kind: "full" };
    if (range.kind === "unsatisfiable") {
      return new Response(null, {
        status: 416,
        headers: { ...headers, "content-range": `bytes */${info.size}` },
      });
    }
    const file = await Deno.open(real, { read: true });
    if (range.kind === "full") {
      headers["content-length"] = String(info.size);
      if (req.method === "HEAD") {
        file.close();
        return new Response(null, { headers });
      }
      return new Response(file.readable, { headers });
    }
    const { start, end } = range as { start: number; end: number };
    const length = end - start + 1;
    headers["content-range"] = `bytes ${start}-${end}/${info.size}`;
    headers["content-length"] = String(length);
    if (req.method === "HEAD") {
      file.close();
      return new Response(null, { status: 206, headers });
    }
    await file.seek(start, Deno.SeekMode.Start);
    let left = length;
    const body = file.readable.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (left <= 0) return;
          const part = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
          left -= part.byteLength;
          controller.enqueue(part);
          if (left <= 0) controller.terminate();
        },
      }),
    );
    return new Response(body, { status: 206, headers });
  },
};
