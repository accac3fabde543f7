// File types for serving workspace files and uploads: MIME by extension, image sniffing, and
// which types a browser may render inline. Invariant: anything that can run script in our
// origin (HTML, SVG, XML, unknown types) is only ever served as a sandboxed attachment.
import { extname } from "node:path";

const TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".bmp": "image/bmp",
  ".ico": "image/x-icon",
  ".svg": "image/svg+xml",
  ".pdf": "application/pdf",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".html": "text/html",
  ".htm": "text/html",
  ".xhtml": "application/xhtml+xml",
  ".xml": "application/xml",
  ".json": "application/json",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".csv": "text/csv",
  ".md": "text/markdown",
  ".txt": "text/plain",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".wasm": "application/wasm",
};

/** Extensions of text a person reads (source code, config, notes): shown as text/plain. */
const TEXT_EXTS = new Set([
  ".txt",
  ".md",
  ".markdown",
  ".rst",
  ".log",
  ".csv",
  ".tsv",
  ".json",
  ".jsonl",
  ".yaml",
  ".yml",
  ".toml",
  ".ini",
  ".cfg",
  ".conf",
  ".env",
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".tsx",
  ".jsx",
  ".css",
  ".scss",
  ".py",
  ".rb",
  ".go",
  ".rs",
  ".java",
  ".kt",
  ".c",
  ".h",
  ".cc",
  ".cpp",
  ".hpp",
  ".cs",
  ".php",
  ".sh",
  ".bash",
  ".zsh",
  ".fish",
  ".sql",
  ".lua",
  ".pl",
  ".r",
  ".swift",
  ".dart",
  ".vue",
  ".svelte",
  ".tex",
  ".diff",
  ".patch",
  ".lock",
  ".gitignore",
]);

/** Types a browser renders without running script, safe to show inline from our origin. */
const INLINE_SAFE = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "image/x-icon",
  "audio/mpeg",
  "audio/wav",
  "audio/ogg",
  "video/mp4",
  "video/webm",
  "application/pdf",
  "text/plain",
]);

/** The MIME type for a file name (application/octet-stream when unknown). */
export function mimeForName(name: string): string {
  const ext = extname(name).toLowerCase();
  return TYPES[ext] ?? (TEXT_EXTS.has(ext) ? "text/plain" : "application/octet-stream");
}

/** True for names whose content is text a person reads (code, notes, config). */
export function isTextName(name: string): boolean {
  return TEXT_EXTS.has(extname(name).toLowerCase());
}

/** The raster image type of `bytes` from its magic number, or null. */
export function sniffImage(bytes: Uint8Array): string | null {
  const b = bytes;
  const at = (i: number, ...xs: number[]) => xs.every((x, j) => b[i + j] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  if (at(0, 0x42, 0x4d) && b.length > 26) return "image/bmp";
  if (at(4, 0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66)) return "image/avif";
  return null;
}

export interface ServePolicy {
  /** The Content-Type header to send. */
  contentType: string;
  /** False → `Content-Disposition: attachment`. */
  inline: boolean;
  /** False only for PDF (Chrome's viewer refuses sandboxed documents); it runs no page script. */
  sandbox: boolean;
}

/**
 * How to serve a workspace file. Text-like files (including .js/.html source) are shown as
 * text/plain when viewed; HTML, SVG, XML and unknown types are downloads; every response
 * except PDF carries `Content-Security-Policy: sandbox`, so even a download opened in place
 * cannot run script in the console's origin.
 */
export function servePolicy(name: string, download: boolean): ServePolicy {
  const mime = mimeForName(name);
  const textual = isTextName(name) && mime !== "image/svg+xml";
  if (download) {
    return { contentType: withCharset(mime), inline: false, sandbox: true };
  }
  if (textual) return { contentType: "text/plain; charset=utf-8", inline: true, sandbox: true };
  if (INLINE_SAFE.has(mime)) {
    return { contentType: withCharset(mime), inline: true, sandbox: mime !== "application/pdf" };
  }
  return { contentType: withCharset(mime), inline: false, sandbox: true };
}

function withCharset(mime: string): string {
  return mime.startsWith("text/") ? `${mime}; charset=utf-8` : mime;
}

/** A Content-Disposition value with an ASCII fallback and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_").slice(0, 200) || "file";
  // RFC 5987 attr-char excludes ' ( ) * which encodeURIComponent leaves alone.
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
