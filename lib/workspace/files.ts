// The workspace panel's view of files: list a folder, read a text file, stream raw bytes.
// Invariants: every path goes through resolveInWorkspace (404, never a hint, on escape); the
// console's own state dir is never shown even when it lies inside a workspace (it holds the
// database and the cookie secret); only regular files are opened (a FIFO or device would
// hang or leak), and the file opened is the very inode that was checked.
import { join, relative, sep } from "node:path";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import { resolveInWorkspace, toWorkspaceRelative } from "./workspace_paths.ts";

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
  /** Absolute folders that are never listed or opened (the state dir). */
  hidden?: string[];
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

  const raw: Deno.DirEntry[] = [];
  for await (const e of Deno.readDir(dir)) {
    raw.push(e);
    if (raw.length >= MAX_SCAN_ENTRIES) break;
  }
  const entries: FileEntry[] = [];
  for (const e of raw) {
    const full = join(dir, e.name);
    if (hidden.some((h) => within(h, full))) continue;
    const entry = await describe(root, full, e, base === "." ? e.name : `${base}/${e.name}`);
    if (entry) entries.push(entry);
  }
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

async function describe(
  root: string,
  full: string,
  e: Deno.DirEntry,
  path: string,
): Promise<FileEntry | null> {
  try {
    const entry = (st: Deno.FileInfo): FileEntry => ({
      name: e.name,
      path,
      type: st.isDirectory ? "dir" : "file",
      size: st.isDirectory ? null : st.size,
      mtime: toSeconds(st.mtime),
    });
    if (!e.isSymlink) return entry(await Deno.lstat(full));
    const link = await Deno.lstat(full);
    let target: string | null = null;
    try {
      target = await Deno.realPath(full);
    } catch { /* dangling */ }
    if (target && within(root, target)) {
      return { ...entry(await Deno.stat(target)), is_symlink: true };
    }
    return {
      name: e.name,
      path,
      type: "symlink",
      size: null,
      mtime: toSeconds(link.mtime),
      is_symlink: true,
    };
  } catch {
    return null; // removed while listing
  }
}

/** Open a regular file inside the workspace, checking that the opened inode is the checked one. */
async function openRegular(
  workspace: string,
  rel: string,
  opts: FileAccessOptions,
): Promise<{ file: Deno.FsFile; real: string; info: Deno.FileInfo }> {
  const real = await resolveVisible(workspace, rel, await realHidden(opts));
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
  opts: FileAccessOptions = {},
): Promise<{ path: string; content: string; size: number; lines: number }> {
  const { file, real, info } = await openRegular(workspace, rel, opts);
  try {
    const tooBig = (size: number) =>
      new PayloadTooLargeError(
        `"${rel}" is ${size.toLocaleString("en-US")} bytes; the viewer opens files up to ` +
          `${MAX_VIEW_BYTES.toLocaleString("en-US")} bytes. Download it instead.`,
      );
    if (info.size > MAX_VIEW_BYTES) throw tooBig(info.size);
    const buf = new Uint8Array(MAX_VIEW_BYTES + 1);
    let total = 0;
    while (total < buf.length) {
      const n = await file.read(buf.subarray(total));
      if (n === null) break;
      total += n;
    }
    if (total > MAX_VIEW_BYTES) throw tooBig(total); // grew after the stat
    const content = new TextDecoder("utf-8", { fatal: false }).decode(buf.subarray(0, total));
    return {
      path: await toWorkspaceRelative(workspace, real),
      content,
      size: total,
      lines: countLines(content),
    };
  } finally {
    file.close();
  }
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
