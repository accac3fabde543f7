// The workspace panel's view of files: list a folder, read a text file, stream raw bytes.
// Invariants: every path goes through resolveInWorkspace (404, never a hint, on escape);
// protected paths (state dir, config.yaml, its .env, ~/.hermes, credentials:
// protected_paths.ts) are never listed or opened even inside a workspace; only regular files
// are opened (a FIFO or device would hang or leak), and the file opened is the very inode that
// was checked.
import { join, relative, sep } from "node:path";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import { resolveInWorkspace, toWorkspaceRelative } from "./workspace_paths.ts";
import { protectedFileIds, type ProtectedPathsConfig, realSecretPaths } from "./protected_paths.ts";
import {
  closeFd,
  fdPath,
  findLibc,
  initSafeFs,
  lstatAt,
  O,
  openBeneath,
  openRootDir,
  readDirFd,
  SafeFsError,
  type SafeStat,
  statFd,
} from "../sandbox/safe_fs.ts";

/** API.md: a listing holds at most 200 entries. */
export const MAX_LIST_ENTRIES = 200;
/** API.md: the text viewer refuses files over 400,000 bytes (413). */
export const MAX_VIEW_BYTES = 400_000;
/** Folder entries examined at most (a folder of millions must not stall the server). */
const MAX_SCAN_ENTRIES = 50_000;

export interface FileEntry {
  name: string;
  /** Workspace-relative, `/`-separated: pass it back as `path` to list/read. */
  path: string;
  /** A symlink whose target is inside the workspace shows its target's type. */
  type: "dir" | "file" | "symlink";
  /** Bytes for files; null for folders and unfollowed symlinks. */
  size: number | null;
  /** Epoch seconds of the last modification (null when unknown). */
  mtime: number | null;
  /** Present (true) on entries that are symbolic links. */
  is_symlink?: true;
}

export interface Listing {
  entries: FileEntry[];
  path: string;
  workspace: string;
  /** True when the folder held more than MAX_LIST_ENTRIES entries. */
  truncated: boolean;
}

export interface FileAccessOptions {
  /** More absolute paths that are never listed or opened. */
  hidden?: string[];
  /** The app config: its protected paths (protected_paths.ts) are never listed or opened. */
  protect?: ProtectedPathsConfig;
}

function within(root: string, target: string): boolean {
  if (target === root) return true;
  const rel = relative(root, target);
  return rel !== "" && !rel.startsWith(".." + sep) && rel !== ".." && !rel.startsWith(sep);
}

async function realHidden(opts: FileAccessOptions): Promise<string[]> {
  const out: string[] = [];
  for (const h of opts.hidden ?? []) {
    out.push(await Deno.realPath(h).catch(() => h));
  }
  if (opts.protect) out.push(...await realSecretPaths(opts.protect));
  return out;
}

/** Resolve a request path, refusing escapes and anything inside a hidden folder (404). */
async function resolveVisible(
  workspace: string,
  rel: string,
  hidden: string[],
): Promise<string> {
  const real = await resolveInWorkspace(workspace, rel, { mustExist: true });
  if (hidden.some((h) => within(h, real))) throw new NotFoundError();
  return real;
}

const toSeconds = (d: Date | null) => (d ? d.getTime() / 1000 : null);

/**
 * List a workspace folder: folders first, then files, each case-insensitively by name, at
 * most 200 entries. Symlinks are followed only when they land inside the workspace; others
 * are listed as `symlink` and never touched.
 */
export async function listDirectory(
  workspace: string,
  rel: string,
  opts: FileAccessOptions = {},
): Promise<Listing> {
  const hidden = await realHidden(opts);
  const dir = await resolveVisible(workspace, rel, hidden);
  const info = await Deno.stat(dir);
  if (!info.isDirectory) {
    throw new ValidationError(`"${rel}" is a file, not a folder`, "path");
  }
  const root = await Deno.realPath(workspace);
  const base = await toWorkspaceRelative(workspace, dir);

  const entries = listBeneath(root, dir, base, hidden);
  const group = (e: FileEntry) => (e.type === "dir" ? 0 : 1);
  // Case-insensitive with numbers in number order (file_2 before file_10), as a person reads.
  const byName = new Intl.Collator("en", { sensitivity: "base", numeric: true });
  entries.sort((a, b) =>
    group(a) - group(b) || byName.compare(a.name, b.name) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
  return {
    entries: entries.slice(0, MAX_LIST_ENTRIES),
    path: base,
    workspace: root,
    truncated: entries.length > MAX_LIST_ENTRIES,
  };
}

/**
 * The entries of the folder `dir` (a real path inside `root`), read from a directory fd opened
 * beneath the root (safe_fs.ts): a folder swapped for a symlink after the path was checked
 * cannot make the panel list somewhere else. Links are described only when their target, opened
 * the same way, is inside and not hidden. Fails closed (404) without libc.
 */
function listBeneath(root: string, dir: string, base: string, hidden: string[]): FileEntry[] {
  if (!safeFsAvailable()) throw new NotFoundError();
  const visible = (p: string) => within(root, p) && !hidden.some((h) => within(h, p));
  const rootFd = openRootDir(root);
  let dirFd = -1;
  try {
    const rel = relative(root, dir);
    dirFd = openBeneath(rootFd, rel === "" ? "." : rel, O.RDONLY | O.DIRECTORY);
    const dirReal = fdPath(dirFd);
    if (!visible(dirReal)) throw new NotFoundError();
    const entries: FileEntry[] = [];
    for (const e of readDirFd(dirFd, MAX_SCAN_ENTRIES)) {
      const full = join(dirReal, e.name);
      if (!visible(full)) continue;
      const path = base === "." ? e.name : `${base}/${e.name}`;
      let st: SafeStat;
      try {
        st = lstatAt(dirFd, e.name);
      } catch {
        continue; // removed while listing
      }
      const entry = (s: SafeStat): FileEntry => ({
        name: e.name,
        path,
        type: s.type === "dir" ? "dir" : "file",
        size: s.type === "dir" ? null : s.size,
        mtime: s.mtimeMs === null ? null : s.mtimeMs / 1000,
      });
      if (st.type !== "symlink") {
        entries.push(entry(st));
        continue;
      }
      let target: SafeStat | null = null;
      let fd = -1;
      try {
        fd = openBeneath(rootFd, relative(root, full), O.PATH);
        if (visible(fdPath(fd))) target = statFd(fd);
      } catch {
        /* leads outside, dangling or hidden */
      } finally {
        if (fd !== -1) closeFd(fd);
      }
      entries.push(
        target && target.type !== "symlink" ? { ...entry(target), is_symlink: true } : {
          name: e.name,
          path,
          type: "symlink",
          size: null,
          mtime: st.mtimeMs === null ? null : st.mtimeMs / 1000,
          is_symlink: true,
        },
      );
    }
    return entries;
  } catch (err) {
    if (err instanceof SafeFsError) throw new NotFoundError();
    throw err;
  } finally {
    if (dirFd !== -1) closeFd(dirFd);
    closeFd(rootFd);
  }
}

let safeFsReady: boolean | null = null;

/** Load libc once; false when this process may not (no --allow-ffi) or there is none. */
function safeFsAvailable(): boolean {
  if (safeFsReady === null) {
    const libc = findLibc();
    try {
      if (libc) initSafeFs(libc);
      safeFsReady = libc !== null;
    } catch {
      safeFsReady = false;
    }
  }
  return safeFsReady;
}

/**
 * True when `real` (inside `root`) opened beneath the root's directory fd (safe_fs.ts, kernel-
 * enforced) is the inode `info` describes and that path is visible. Fails closed when libc
 * cannot be loaded (the server must run with --allow-ffi).
 */
function sameInodeBeneath(
  root: string,
  real: string,
  info: Deno.FileInfo,
  hidden: string[],
): boolean {
  if (!safeFsAvailable()) return false;
  const rel = relative(root, real);
  if (rel === "" || rel.startsWith("..")) return false;
  let rootFd = -1;
  let fd = -1;
  try {
    rootFd = openRootDir(root);
    fd = openBeneath(rootFd, rel, O.PATH);
    const path = fdPath(fd);
    if (!within(root, path) || hidden.some((h) => within(h, path))) return false;
    const st = statFd(fd);
    return info.ino !== null && st.ino === String(info.ino) && st.devNumber === info.dev &&
      st.type === "file";
  } catch {
    return false;
  } finally {
    if (fd !== -1) closeFd(fd);
    if (rootFd !== -1) closeFd(rootFd);
  }
}

/** Open a regular file inside the workspace, checking that the opened inode is the checked one. */
async function openRegular(
  workspace: string,
  rel: string,
  opts: FileAccessOptions,
): Promise<{ file: Deno.FsFile; real: string; info: Deno.FileInfo }> {
  const hidden = await realHidden(opts);
  const real = await resolveVisible(workspace, rel, hidden);
  const before = await Deno.stat(real);
  if (before.isDirectory) throw new ValidationError(`"${rel}" is a folder, not a file`, "path");
  if (!before.isFile) throw new ValidationError(`"${rel}" is not a regular file`, "path");
  const file = await Deno.open(real, { read: true });
  try {
    const info = await file.stat();
    if (
      !info.isFile || (before.ino !== null && info.ino !== before.ino) || info.dev !== before.dev
    ) {
      throw new NotFoundError();
    }
    // The path-based open above can be redirected by a directory swapped for a symlink at the
    // right moment; the inode it opened must be the one reached race-free beneath the root.
    if (!sameInodeBeneath(await Deno.realPath(workspace), real, info, hidden)) {
      throw new NotFoundError();
    }
    // A hard link to a protected file is that file under another name.
    if (opts.protect && (info.nlink ?? 1) > 1) {
      const ids = new Set(await protectedFileIds(opts.protect));
      if (ids.has(`${info.dev}:${info.ino}`)) throw new NotFoundError();
    }
    return { file, real, info };
  } catch (err) {
    file.close();
    throw err;
  }
}

/**
 * Read a text file for the viewer: UTF-8 with replacement characters for invalid bytes,
 * `lines` counted as an editor would. Over 400,000 bytes → 413 saying what to do instead.
 */
export async function readTextFile(
  workspace: string,
  rel: string,
  opts: FileAccessOptions & { head?: boolean } = {},
): Promise<TextFileView> {
  const { file, real, info } = await openRegular(workspace, rel, opts);
  try {
    const tooBig = (size: number) =>
      new PayloadTooLargeError(
        `"${rel}" is ${size.toLocaleString("en-US")} bytes; the viewer opens files up to ` +
          `${MAX_VIEW_BYTES.toLocaleString("en-US")} bytes. Download it instead.`,
      );
    if (info.size > MAX_VIEW_BYTES && !opts.head) throw tooBig(info.size);
    const buf = new Uint8Array(MAX_VIEW_BYTES + 1);
    let total = 0;
    while (total < buf.length) {
      const n = await file.read(buf.subarray(total));
      if (n === null) break;
      total += n;
    }
    const truncated = total > MAX_VIEW_BYTES;
    if (truncated && !opts.head) throw tooBig(total); // grew after the stat
    let bytes = buf.subarray(0, Math.min(total, MAX_VIEW_BYTES));
    if (truncated) {
      // The first whole lines only: a cut mid-line (or mid-character) would mislead.
      const nl = bytes.lastIndexOf(10);
      if (nl > 0) bytes = bytes.subarray(0, nl + 1);
    }
    const content = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    const view: TextFileView = {
      path: await toWorkspaceRelative(workspace, real),
      content,
      size: truncated ? Math.max(info.size, total) : total,
      lines: countLines(content),
      mtime: toSeconds(info.mtime),
      sha256: await sha256Hex(bytes),
    };
    if (truncated) {
      view.truncated = true;
      view.readonly = true;
    }
    return view;
  } finally {
    file.close();
  }
}

/** What GET /api/file answers (the editor keeps `sha256`/`mtime` as the base of its save). */
export interface TextFileView {
  path: string;
  content: string;
  size: number;
  lines: number;
  /** Epoch seconds of the last modification when read. */
  mtime: number | null;
  /** SHA-256 (hex) of the bytes read: the save conflict check compares against it. */
  sha256: string;
  /** Only with `head`: the file is larger than the viewer's limit; these are its first lines. */
  truncated?: true;
  readonly?: true;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Lines as an editor counts them: "" → 0, "a" → 1, "a\n" → 1, "a\nb" → 2. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith("\n") ? n : n + 1;
}

/** An open regular file for streaming (the caller sends `file.readable`, which closes it). */
export async function openRawFile(
  workspace: string,
  rel: string,
  opts: FileAccessOptions = {},
): Promise<{ file: Deno.FsFile; name: string; size: number; mtime: number | null }> {
  const { file, real, info } = await openRegular(workspace, rel, opts);
  return {
    file,
    name: real.split(sep).at(-1) ?? "file",
    size: info.size,
    mtime: toSeconds(info.mtime),
  };
}
