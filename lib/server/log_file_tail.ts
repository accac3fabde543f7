// The Hermes log files (`<profile home>/logs/{agent,errors,gateway}.log`) read the way the
// original's `GET /api/logs?file=…&tail=…` reads them: a name from a fixed list, never a path;
// a tail of 100/200/500/1000 lines (anything else means 200); and never more than the last
// LOG_WINDOW_BYTES of the file, read asynchronously from the end in small chunks, so a huge log
// neither blocks the server nor lands in memory. Server-only.
import { dirname, join } from "node:path";
import { ValidationError } from "../errors.ts";

/** The only files this reader opens: the key a client sends → the file name on disk. */
export const LOG_FILES: Readonly<Record<string, string>> = Object.freeze({
  agent: "agent.log",
  errors: "errors.log",
  gateway: "gateway.log",
});

/** The tail lengths a client may ask for; any other value falls back to the default. */
export const LOG_TAIL_CHOICES: readonly number[] = [100, 200, 500, 1000];
export const DEFAULT_LOG_TAIL = 200;
/** How far back from the end a read may reach (the original's 4 MiB window). */
export const LOG_WINDOW_BYTES = 4 * 1024 * 1024;
/** Bytes read per step while walking back from the end of the file. */
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** The original's answer: `mtime` in epoch seconds, `hint` non-empty only for a missing file. */
export interface LogFileTail {
  file: string;
  tail: number;
  lines: string[];
  /** True when the file is longer than the window, so its start was never read. */
  truncated: boolean;
  total_bytes: number;
  mtime: number | null;
  hint: string;
}

/** The allowlisted key for `raw` (blank means `agent`); anything else is refused with a 400. */
export function logFileKey(raw: string | null): string {
  const key = (raw ?? "").trim().toLowerCase() || "agent";
  if (!Object.hasOwn(LOG_FILES, key)) {
    const shown = (raw ?? "").slice(0, 80);
    throw new ValidationError(
      `Unknown log file ${JSON.stringify(shown)}: expected one of ${
        Object.keys(LOG_FILES).join(", ")
      }`,
      "file",
    );
  }
  return key;
}

/** `raw` as one of LOG_TAIL_CHOICES, or DEFAULT_LOG_TAIL (as the original: no error). */
export function normalizeLogTail(raw: string | null): number {
  const text = (raw ?? "").trim();
  const n = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  return LOG_TAIL_CHOICES.includes(n) ? n : DEFAULT_LOG_TAIL;
}

/**
 * Read the tail of the log file `rawFile` names under `logsDir`. A missing file (or one that is
 * not a regular file) is an empty answer with a hint that names no path; a file whose real path
 * leaves `logsDir` (a symlink pointing elsewhere) is refused.
 */
export async function readLogFileTail(
  logsDir: string,
  rawFile: string | null,
  rawTail: string | null,
  opts: { windowBytes?: number } = {},
): Promise<LogFileTail> {
  const file = logFileKey(rawFile);
  const tail = normalizeLogTail(rawTail);
  const missing: LogFileTail = {
    file,
    tail,
    lines: [],
    truncated: false,
    total_bytes: 0,
    mtime: null,
    hint: `Log file for ${file} not found yet.`,
  };
  let real: string;
  let realDir: string;
  try {
    real = await Deno.realPath(join(logsDir, LOG_FILES[file]));
    realDir = await Deno.realPath(logsDir);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return missing;
    throw err;
  }
  // The name is fixed, but the entry could be a symlink to anything the server can read.
  if (dirname(real) !== realDir) throw new ValidationError("Invalid log file", "file");
  // Open the resolved path, not the link, so what is checked is what is read.
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(real, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return missing;
    throw err;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile) return missing;
    const window = opts.windowBytes ?? LOG_WINDOW_BYTES;
    const lines = await tailLines(handle, info.size, tail, window);
    return {
      file,
      tail,
      lines,
      truncated: info.size > window,
      total_bytes: info.size,
      mtime: info.mtime ? info.mtime.getTime() / 1000 : null,
      hint: "",
    };
  } finally {
    handle.close();
  }
}

/**
 * The last `tail` lines within the final `window` bytes of an open file of `size` bytes. Walks
 * back a chunk at a time and stops as soon as it holds more line breaks than lines wanted, so a
 * short tail of a big file reads a few kilobytes. A line cut by the window's start is dropped:
 * half a line (or half a character) is not what the log said.
 */
async function tailLines(
  handle: Deno.FsFile,
  size: number,
  tail: number,
  window: number,
): Promise<string[]> {
  const floor = Math.max(0, size - window);
  const chunks: Uint8Array[] = [];
  let start = size;
  let breaks = 0;
  while (start > floor && breaks <= tail) {
    const from = Math.max(floor, start - CHUNK_BYTES);
    const chunk = await readAt(handle, from, start - from);
    chunks.unshift(chunk);
    for (const b of chunk) if (b === NEWLINE) breaks++;
    start = from;
  }
  let bytes = concat(chunks);
  // Unless the read reached the file's first byte or starts right after a line break, its
  // first line began before the window: drop it.
  const startsMidLine = start > 0 && (await readAt(handle, start - 1, 1))[0] !== NEWLINE;
  if (startsMidLine) {
    const cut = bytes.indexOf(NEWLINE);
    bytes = cut < 0 ? new Uint8Array(0) : bytes.subarray(cut + 1);
  }
  return splitLines(new TextDecoder().decode(bytes)).slice(-tail);
}

/** Read exactly `length` bytes at `offset`, fewer only if the file ends first. */
async function readAt(handle: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  await handle.seek(offset, Deno.SeekMode.Start);
  const buf = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const n = await handle.read(buf.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Lines as Python's `splitlines()` gives them for log text: no empty line after a final break. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
