// How GET /api/media serves a workspace file, and HTTP byte ranges for audio and video.
// Invariants: nothing served here runs as script in the console's origin — active documents
// (HTML, SVG, XML) are attachments, never inline (as the original), source files (.js/.ts/.tsx…)
// are text/plain attachments, every answer is sandboxed and nosniff; a range outside the file is
// a 416, never a clamp. Only images, audio, video, PDF and plain text show inline.
import { extname } from "node:path";
import { mimeForName } from "./mime.ts";

/** Source a browser could execute or a person reads as code: plain text, downloaded. */
const SCRIPT_EXTS = new Set([".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"]);

export interface MediaPolicy {
  contentType: string;
  inline: boolean;
  /** Audio and video answer byte ranges (seeking). */
  ranges: boolean;
}

/** The content type, disposition and range support for a media file name. */
export function mediaPolicy(name: string): MediaPolicy {
  const ext = extname(name).toLowerCase();
  if (SCRIPT_EXTS.has(ext)) {
    return { contentType: "text/plain; charset=utf-8", inline: false, ranges: false };
  }
  const mime = mimeForName(name);
  // SVG is an image that can carry script: opened in place it would be a page of its own.
  if (mime === "image/svg+xml") return { contentType: mime, inline: false, ranges: false };
  if (mime.startsWith("image/")) return { contentType: mime, inline: true, ranges: false };
  if (mime.startsWith("audio/") || mime.startsWith("video/")) {
    return { contentType: mime, inline: true, ranges: true };
  }
  // A page opened from our origin could script it (the sandbox is a second line, not the only
  // one): HTML is downloaded, as the original serves it.
  if (mime === "text/html") {
    return { contentType: "text/html; charset=utf-8", inline: false, ranges: false };
  }
  if (mime === "application/pdf") return { contentType: mime, inline: true, ranges: true };
  if (mime === "text/plain" || mime === "text/markdown" || mime === "text/csv") {
    return { contentType: `${mime}; charset=utf-8`, inline: true, ranges: false };
  }
  return { contentType: mime, inline: false, ranges: false };
}

/** Script is already the named risk: the sandbox applies to every media answer. */
export const MEDIA_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; " +
  "style-src 'unsafe-inline'";

export type RangeResult =
  | { kind: "full" }
  | { kind: "partial"; start: number; end: number }
  | { kind: "unsatisfiable" };

/** Parse a single `Range: bytes=…` against a file of `size` bytes (multi-range → full). */
export function parseRange(header: string | null, size: number): RangeResult {
  if (!header) return { kind: "full" };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === "" && m[2] === "")) return { kind: "full" };
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}
