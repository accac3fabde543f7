// Extract an uploaded archive (zip, tar, tar.gz) into a new folder of the workspace. Invariants:
// entries are capped in number and in total bytes *as they inflate* (a zip bomb is cut off, never
// buffered); an absolute, `..`, backslash or control-character entry name fails the whole
// extraction; a symlink entry is created only when it stays inside the new folder, and every
// write is an O_EXCL open beneath the new folder with no symlink followed (so an entry can never
// write through a link); hard links and devices are skipped. On failure the folder is removed.
import { Gunzip, Unzip, UnzipInflate } from "fflate";
import { dirname, join, normalize } from "node:path";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";
import { isProtectedPath, type ProtectedPathsConfig, realSecretPaths } from "./protected_paths.ts";
import { type HeldDir, openWorkspaceDir } from "./file_ops.ts";
import { sanitizeFilename } from "./uploads.ts";
import { hasControlChar } from "./workspace_paths.ts";
import { formatBytes } from "../shared/byte_size.ts";
import {
  closeFd,
  fdPath,
  mkdirAt,
  O,
  openBeneath,
  SafeFsError,
  writeAt,
} from "../sandbox/safe_fs.ts";

// deno-lint-ignore no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/g;

export interface ExtractLimits {
  maxEntries: number;
  maxBytes: number;
}
/** Folder nesting an entry may have. */
export const MAX_DEPTH = 64;
export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxEntries: 10_000,
  maxBytes: 512 * 1024 * 1024,
};

export interface ExtractResult {
  ok: true;
  extracted: number;
  /** Workspace-relative paths of the files written (first 500). */
  files: string[];
  /** Workspace-relative folder everything went into. */
  dest: string;
  skipped: string[];
}

/** Check one entry name: the normalized relative segments, or a 400 naming the entry. */
export function entrySegments(raw: string): string[] {
  const bad = () =>
    new ValidationError(
      `Refusing archive entry "${raw.replace(CONTROL_CHARS, "?").slice(0, 200)}": ` +
        "absolute paths, `..`, backslashes and control characters are not extracted",
    );
  if (hasControlChar(raw) || raw.includes("\\") || raw.startsWith("/") || /^[a-zA-Z]:/.test(raw)) {
    throw bad();
  }
  const parts = raw.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..")) throw bad();
  if (parts.some((p) => new TextEncoder().encode(p).length > 255)) throw bad();
  // Thousands of nested folders would make the tree unusable (and slow to clean up).
  if (parts.length > MAX_DEPTH) throw bad();
  return parts;
}

type Kind = "zip" | "gzip" | "tar";

function detect(bytes: Uint8Array): Kind | null {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return "zip";
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "gzip";
  if (bytes.length >= 262 && new TextDecoder().decode(bytes.subarray(257, 262)) === "ustar") {
    return "tar";
  }
  return null;
}

/** A writer of entries beneath the new folder, counting entries and bytes against the caps. */
class Sink {
  entries = 0;
  bytes = 0;
  files: string[] = [];
  written = 0;
  skipped: string[] = [];
  #fd = -1;
  #offset = 0;
  constructor(
    private dest: HeldDir,
    private destRel: string,
    private limits: ExtractLimits,
    private secrets: string[],
  ) {}

  /** No entry may land on a protected path (a configured one that does not exist yet). */
  #guard(parts: string[]): void {
    if (isProtectedPath(join(this.dest.real, ...parts), this.secrets)) {
      throw new ValidationError(`Refusing archive entry "${parts.join("/")}": a protected path`);
    }
  }

  #count(): void {
    if (++this.entries > this.limits.maxEntries) {
      throw new PayloadTooLargeError(
        `The archive has more than ${this.limits.maxEntries.toLocaleString("en-US")} entries`,
      );
    }
  }

  /** Open (creating folders) the parent of `parts`, beneath the new folder; caller closes. */
  #parentFd(parts: string[]): number {
    let cur = this.dest.fd;
    for (const seg of parts.slice(0, -1)) {
      mkdirAt(cur, seg);
      const next = openBeneath(cur, seg, O.RDONLY | O.DIRECTORY, { noSymlinks: true });
      if (cur !== this.dest.fd) closeFd(cur);
      cur = next;
    }
    return cur;
  }

  dir(name: string): void {
    const parts = entrySegments(name);
    if (parts.length === 0) return;
    this.#guard(parts);
    this.#count();
    const fd = this.#parentFd(parts);
    try {
      mkdirAt(fd, parts.at(-1)!);
    } finally {
      if (fd !== this.dest.fd) closeFd(fd);
    }
  }

  begin(name: string): void {
    const parts = entrySegments(name);
    if (parts.length === 0) throw new ValidationError(`Refusing archive entry "${name}"`);
    this.#guard(parts);
    this.#count();
    const parent = this.#parentFd(parts);
    try {
      this.#fd = openBeneath(parent, parts.at(-1)!, O.WRONLY | O.CREAT | O.EXCL, {
        mode: 0o644,
        noSymlinks: true,
      });
    } catch (err) {
      if (err instanceof SafeFsError && err.code === "EEXIST") {
        throw new ValidationError(`The archive holds "${name}" twice`);
      }
      throw err;
    } finally {
      if (parent !== this.dest.fd) closeFd(parent);
    }
    this.#offset = 0;
    this.written++;
    if (this.files.length < 500) {
      this.files.push(`${this.destRel === "." ? "" : this.destRel + "/"}${parts.join("/")}`);
    }
  }

  data(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxBytes) {
      throw new PayloadTooLargeError(
        `The archive expands to more than ${formatBytes(this.limits.maxBytes)}; not extracted`,
      );
    }
    writeAt(this.#fd, chunk, this.#offset);
    this.#offset += chunk.length;
  }

  end(): void {
    if (this.#fd !== -1) closeFd(this.#fd);
    this.#fd = -1;
  }

  /** A symlink entry: created only when its target stays inside the new folder. */
  async symlink(name: string, target: string): Promise<void> {
    const parts = entrySegments(name);
    this.#guard(parts);
    this.#count();
    const inside = !target.startsWith("/") && !target.includes("\\") && !hasControlChar(target) &&
      (() => {
        const resolved = normalize(join("/x", dirname(parts.join("/")), target));
        return resolved === "/x" || resolved.startsWith("/x/");
      })();
    if (!inside) {
      throw new ValidationError(
        `Refusing archive entry "${name}": a symbolic link pointing outside the archive`,
      );
    }
    const parent = this.#parentFd(parts);
    try {
      // Deno has no symlinkat: the link is made at the kernel-held path of the parent fd.
      await Deno.symlink(target, join(fdPath(parent), parts.at(-1)!));
    } finally {
      if (parent !== this.dest.fd) closeFd(parent);
    }
  }

  close(): void {
    this.end();
  }
}

/** Unpack a zip, inflating file by file as the bytes are pushed (each chunk counted). */
function extractZip(bytes: Uint8Array, sink: Sink): void {
  let failure: unknown = null;
  const unzip = new Unzip((file) => {
    if (failure) return;
    try {
      if (file.name.endsWith("/")) {
        sink.dir(file.name);
        return;
      }
      sink.begin(file.name);
    } catch (err) {
      failure = err;
      return;
    }
    file.ondata = (err, data, final) => {
      if (failure) return;
      try {
        if (err) throw new ValidationError(`Corrupt zip entry "${file.name}": ${err.message}`);
        sink.data(data);
        if (final) sink.end();
      } catch (e) {
        failure = e;
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const step = 64 * 1024;
  for (let i = 0; i < bytes.length && !failure; i += step) {
    unzip.push(bytes.subarray(i, i + step), i + step >= bytes.length);
  }
  if (failure) throw failure;
}

/** A streaming tar reader: 512-byte headers, GNU long names and pax `path` records. */
async function extractTar(stream: (push: (c: Uint8Array) => void) => void, sink: Sink) {
  let failure: unknown = null;
  const pending: Promise<void>[] = [];
  let buf = new Uint8Array(0);
  let state: "header" | "data" | "meta" | "skip" = "header";
  let remaining = 0;
  let padding = 0;
  let longName: string | null = null;
  let meta: Uint8Array[] = [];
  let metaType = "";
  const dec = new TextDecoder();
  const str = (b: Uint8Array) => {
    const z = b.indexOf(0);
    return dec.decode(z === -1 ? b : b.subarray(0, z));
  };
  const octal = (b: Uint8Array) => {
    if (b[0] & 0x80) throw new ValidationError("Unsupported tar: base-256 sizes");
    const t = str(b).trim();
    const n = t === "" ? 0 : parseInt(t, 8);
    if (!Number.isFinite(n) || n < 0) throw new ValidationError("Corrupt tar header");
    return n;
  };
  const feed = (chunk: Uint8Array) => {
    if (failure) return;
    try {
      const joined = new Uint8Array(buf.length + chunk.length);
      joined.set(buf);
      joined.set(chunk, buf.length);
      buf = joined;
      let pos = 0;
      while (true) {
        if (state === "header") {
          if (buf.length - pos < 512) break;
          const h = buf.subarray(pos, pos + 512);
          pos += 512;
          if (h.every((b) => b === 0)) continue;
          const size = octal(h.subarray(124, 136));
          const type = String.fromCharCode(h[156] || 48);
          const prefix = str(h.subarray(345, 500));
          let name = str(h.subarray(0, 100));
          if (prefix && dec.decode(h.subarray(257, 262)) === "ustar") name = `${prefix}/${name}`;
          if (longName !== null) name = longName;
          longName = null;
          remaining = size;
          padding = (512 - (size % 512)) % 512;
          if (type === "L" || type === "x") {
            if (size > 64 * 1024) throw new ValidationError("Corrupt tar: oversized header");
            state = "meta";
            metaType = type;
            meta = [];
          } else if (type === "0" || type === "7") {
            sink.begin(name);
            state = "data";
          } else if (type === "5") {
            sink.dir(name);
            state = "skip";
          } else if (type === "2") {
            pending.push(sink.symlink(name, str(h.subarray(157, 257))));
            state = "skip";
          } else {
            if (type !== "g") sink.skipped.push(name);
            state = "skip";
          }
          if (remaining === 0 && state !== "meta") {
            if (state === "data") sink.end();
            state = padding ? "skip" : "header";
            remaining = 0;
          }
          continue;
        }
        const avail = buf.length - pos;
        if (avail === 0) break;
        if (remaining > 0) {
          const n = Math.min(avail, remaining);
          const part = buf.subarray(pos, pos + n);
          if (state === "data") sink.data(part);
          else if (state === "meta") meta.push(part.slice());
          pos += n;
          remaining -= n;
          if (remaining > 0) break;
          if (state === "data") sink.end();
          if (state === "meta") {
            const all = new Uint8Array(meta.reduce((a, m) => a + m.length, 0));
            let o = 0;
            for (const m of meta) {
              all.set(m, o);
              o += m.length;
            }
            if (metaType === "L") longName = str(all);
            else {
              for (const rec of dec.decode(all).split("\n")) {
                const m = /^\d+ path=(.*)$/.exec(rec);
                if (m) longName = m[1];
              }
            }
          }
        }
        const p = Math.min(buf.length - pos, padding);
        pos += p;
        padding -= p;
        if (padding > 0) break;
        state = "header";
      }
      buf = buf.slice(pos);
    } catch (err) {
      failure = err;
    }
  };
  stream(feed);
  for (const p of pending) await p.catch((e) => failure ??= e);
  if (failure) throw failure;
}

/**
 * Extract `bytes` (named `filename`) into a new folder named after the archive inside the
 * workspace folder `dir` (`name`, `name-1`, … never an existing one).
 */
export async function extractArchive(
  workspace: string,
  dir: string,
  filename: string,
  bytes: Uint8Array,
  opts: { protect?: ProtectedPathsConfig; limits?: ExtractLimits } = {},
): Promise<ExtractResult> {
  const kind = detect(bytes);
  if (!kind) throw new ValidationError(`"${filename}" is not a zip, tar or tar.gz archive`);
  const limits = opts.limits ?? DEFAULT_EXTRACT_LIMITS;
  const parent = await openWorkspaceDir(workspace, dir || ".", opts.protect);
  const stem = sanitizeFilename(filename).replace(/\.(zip|tgz|tar\.gz|tar|gz)$/i, "") ||
    "archive";
  let name = stem;
  let created = false;
  for (let n = 0; n < 1000 && !created; n++) {
    name = n === 0 ? stem : `${stem}-${n}`;
    try {
      closeFd(openBeneath(parent.fd, name, O.PATH, { noSymlinks: true }));
    } catch (err) {
      if (err instanceof SafeFsError && err.code === "ENOENT") {
        mkdirAt(parent.fd, name);
        created = true;
        break;
      }
      parent.close();
      throw err;
    }
  }
  const destRel = parent.rel === "." ? name : `${parent.rel}/${name}`;
  let dest: HeldDir | null = null;
  let sink: Sink | null = null;
  try {
    if (!created) throw new ValidationError(`Too many folders named "${stem}"`);
    dest = await openWorkspaceDir(workspace, destRel, opts.protect);
    sink = new Sink(
      dest,
      destRel,
      limits,
      opts.protect ? await realSecretPaths(opts.protect) : [],
    );
    const s = sink;
    if (kind === "zip") extractZip(bytes, s);
    else {
      await extractTar((push) => {
        if (kind === "tar") {
          for (let i = 0; i < bytes.length; i += 65536) push(bytes.subarray(i, i + 65536));
          return;
        }
        const gz = new Gunzip((chunk) => push(chunk));
        for (let i = 0; i < bytes.length; i += 65536) {
          gz.push(bytes.subarray(i, i + 65536), i + 65536 >= bytes.length);
        }
      }, s);
    }
    s.close();
    return {
      ok: true,
      extracted: s.written,
      files: s.files,
      dest: destRel,
      skipped: s.skipped.slice(0, 100),
    };
  } catch (err) {
    sink?.close();
    if (created) {
      try {
        await Deno.remove(join(fdPath(parent.fd), name), { recursive: true });
      } catch { /* best effort */ }
    }
    if (err instanceof SafeFsError) {
      throw new ValidationError(`Could not extract "${filename}": ${err.code}`);
    }
    if (
      err instanceof Error && !(err instanceof ValidationError) &&
      !(err instanceof PayloadTooLargeError)
    ) {
      throw new ValidationError(`Could not extract "${filename}": ${err.message}`);
    }
    throw err;
  } finally {
    dest?.close();
    parent.close();
  }
}
