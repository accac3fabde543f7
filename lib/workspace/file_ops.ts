// The workspace panel's own file operations: create, create a folder, save (with a conflict
// check), rename, move. Invariants: every path passes the one guard (resolveInWorkspace) and is
// then reached race-free from a directory fd opened beneath the workspace root (safe_fs.ts, no
// symlink followed on the way); protected paths are refused as not found; nothing is ever
// overwritten by a rename or move (RENAME_NOREPLACE); a save whose base changed is a 409.
import { basename, dirname, join, relative } from "node:path";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import { ConflictError } from "../errors.ts";
import { formatBytes } from "../shared/byte_size.ts";
import { checkRelativePath, hasControlChar, resolveInWorkspace } from "./workspace_paths.ts";
import {
  isProtectedPath,
  protectedFileIds,
  type ProtectedPathsConfig,
  realSecretPaths,
} from "./protected_paths.ts";
import {
  closeFd,
  fdPath,
  findLibc,
  initSafeFs,
  lstatAt,
  mkdirAt,
  O,
  openBeneath,
  openRootDir,
  readFd,
  renameAt,
  SafeFsError,
  type SafeStat,
  statFd,
  writeFdAll,
} from "../sandbox/safe_fs.ts";

// deno-lint-ignore no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/g;

/** The editor saves at most this much (a larger body is a 413 saying so). */
export const MAX_SAVE_BYTES = 5 * 1024 * 1024;
/** Linux NAME_MAX, in UTF-8 bytes. */
const MAX_NAME_BYTES = 255;

let ready: boolean | null = null;
/** Load libc once; operations fail closed (404) without it. */
export function ensureSafeFs(): void {
  if (ready === null) {
    const libc = findLibc();
    try {
      if (libc) initSafeFs(libc);
      ready = libc !== null;
    } catch {
      ready = false;
    }
  }
  if (!ready) throw new NotFoundError("File operations need Linux with libc (--allow-ffi)");
}

/**
 * A new entry name typed by a person: one segment, no `/` or `\`, not `.`/`..`, no control
 * characters, at most 255 UTF-8 bytes. Bad names are a 400 naming the problem.
 */
export function checkNewName(name: unknown): string {
  if (typeof name !== "string") throw new ValidationError("A name is required", "new_name");
  const n = name.trim();
  if (n === "" || n === "." || n === "..") {
    throw new ValidationError(`Invalid file name "${n}"`, "new_name");
  }
  if (n.includes("/") || n.includes("\\") || hasControlChar(n)) {
    throw new ValidationError(
      `Invalid file name "${n.replace(CONTROL_CHARS, "?")}": no slashes or control characters`,
      "new_name",
    );
  }
  if (new TextEncoder().encode(n).length > MAX_NAME_BYTES) {
    throw new ValidationError(`File name is longer than ${MAX_NAME_BYTES} bytes`, "new_name");
  }
  // The path guard's own rules (look-alike slashes, percent-escapes…) apply to names too.
  try {
    checkRelativePath(n);
  } catch {
    throw new ValidationError(`Invalid file name "${n}"`, "new_name");
  }
  return n;
}

/** A directory of the workspace held open: its fd, real path and the root's. */
export interface HeldDir {
  root: string;
  rootFd: number;
  fd: number;
  real: string;
  /** Workspace-relative, "/"-separated ("." for the root). */
  rel: string;
  close(): void;
}

async function secretList(protect?: ProtectedPathsConfig): Promise<string[]> {
  return protect ? await realSecretPaths(protect) : [];
}

/**
 * Open the existing folder `rel` of the workspace beneath its root, refusing protected folders
 * and anything whose kernel-held path is not the checked one (a swap mid-call) with a 404.
 */
export async function openWorkspaceDir(
  workspace: string,
  rel: string,
  protect?: ProtectedPathsConfig,
): Promise<HeldDir> {
  ensureSafeFs();
  const secrets = await secretList(protect);
  const real = await resolveInWorkspace(workspace, rel, { mustExist: true });
  const root = await Deno.realPath(workspace);
  if (isProtectedPath(real, secrets)) throw new NotFoundError();
  let rootFd = -1;
  let fd = -1;
  try {
    rootFd = openRootDir(root);
    const r = relative(root, real);
    fd = openBeneath(rootFd, r === "" ? "." : r, O.RDONLY | O.DIRECTORY, { noSymlinks: true });
    if (fdPath(fd) !== real) throw new NotFoundError();
  } catch (err) {
    if (fd !== -1) closeFd(fd);
    if (rootFd !== -1) closeFd(rootFd);
    if (err instanceof SafeFsError) {
      if (err.code === "ENOTDIR") throw new ValidationError(`"${rel}" is not a folder`, "path");
      throw new NotFoundError();
    }
    throw err;
  }
  const relOut = relative(root, real).split("/").filter(Boolean).join("/") || ".";
  return {
    root,
    rootFd,
    fd,
    real,
    rel: relOut,
    close() {
      closeFd(fd);
      closeFd(rootFd);
    },
  };
}

/** An entry named by the request itself (never its symlink target): its folder, held, + leaf. */
export interface HeldEntry {
  dir: HeldDir;
  leaf: string;
  /** Workspace-relative path of the entry. */
  rel: string;
  stat: SafeStat | null;
}

/**
 * Hold the parent folder of `rel` and look at the entry itself (lstat: a symlink is the link).
 * The workspace root itself is not an entry (400); a protected entry is a 404.
 */
export async function openEntry(
  workspace: string,
  rel: string,
  protect?: ProtectedPathsConfig,
): Promise<HeldEntry> {
  const clean = checkRelativePath(rel).split("/").filter((p) => p !== "" && p !== ".").join("/");
  if (clean === "") throw new ValidationError("The workspace root cannot be changed", "path");
  const leaf = basename(clean);
  const parent = dirname(clean);
  const dir = await openWorkspaceDir(workspace, parent === "" ? "." : parent, protect);
  try {
    const secrets = await secretList(protect);
    if (isProtectedPath(join(dir.real, leaf), secrets)) throw new NotFoundError();
    let stat: SafeStat | null = null;
    try {
      stat = lstatAt(dir.fd, leaf);
    } catch (err) {
      if (!(err instanceof SafeFsError) || err.code !== "ENOENT") throw new NotFoundError();
    }
    return { dir, leaf, rel: dir.rel === "." ? leaf : `${dir.rel}/${leaf}`, stat };
  } catch (err) {
    dir.close();
    throw err;
  }
}

function translate(err: unknown, what: string): never {
  if (err instanceof SafeFsError) {
    if (err.code === "EEXIST" || err.code === "ENOTEMPTY") {
      throw new ValidationError(`A file named "${what}" already exists`);
    }
    if (err.code === "ENOSPC" || err.code === "EDQUOT") {
      throw new PayloadTooLargeError("The disk is full");
    }
    if (err.code === "EACCES" || err.code === "EPERM" || err.code === "EROFS") {
      throw new ValidationError(`Permission denied: "${what}"`);
    }
    throw new NotFoundError();
  }
  throw err;
}

/** SHA-256 of `bytes`, hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

function utf8(content: unknown): Uint8Array {
  const text = typeof content === "string" ? content : "";
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > MAX_SAVE_BYTES) {
    throw new PayloadTooLargeError(
      `The content is ${formatBytes(bytes.length)}; files saved from the panel hold at most ` +
        formatBytes(MAX_SAVE_BYTES),
    );
  }
  return bytes;
}

/**
 * Make the folders of `relDir` that do not exist yet, one segment at a time from a directory fd
 * held beneath the workspace root: no symlink is followed on the way, each new name passes the
 * rules of a typed one, and a protected folder is refused as not found. A segment that is a file
 * is a 400 naming it.
 */
export async function createMissingFolders(
  workspace: string,
  relDir: string,
  protect?: ProtectedPathsConfig,
): Promise<void> {
  const segments = relDir.split("/").filter((p) => p !== "" && p !== ".");
  if (segments.length === 0) return;
  const root = await openWorkspaceDir(workspace, ".", protect);
  const secrets = await secretList(protect);
  const held: number[] = [];
  try {
    let fd = root.fd;
    let real = root.real;
    for (const [i, segment] of segments.entries()) {
      real = join(real, segment);
      if (isProtectedPath(real, secrets)) throw new NotFoundError();
      const open = () => openBeneath(fd, segment, O.RDONLY | O.DIRECTORY, { noSymlinks: true });
      let next: number;
      try {
        next = open();
      } catch (err) {
        const soFar = segments.slice(0, i + 1).join("/");
        if (err instanceof SafeFsError && err.code === "ENOTDIR") {
          throw new ValidationError(`"${soFar}" is a file, not a folder`, "path");
        }
        if (!(err instanceof SafeFsError) || err.code !== "ENOENT") throw new NotFoundError();
        checkNewName(segment);
        try {
          mkdirAt(fd, segment);
          next = open();
        } catch (made) {
          translate(made, soFar);
        }
      }
      held.push(next);
      fd = next;
    }
  } finally {
    for (const fd of held) closeFd(fd);
    root.close();
  }
}

/**
 * POST /api/file/create: a new file (never an existing one: 400 "already exists"). With
 * `parents`, the folders its path names are made first when missing (the New file dialog
 * accepts `notes/todo.md`); without, a missing folder is a 404.
 */
export async function createFile(
  workspace: string,
  rel: string,
  content: unknown,
  protect?: ProtectedPathsConfig,
  opts: { parents?: boolean } = {},
): Promise<{ ok: true; path: string }> {
  const bytes = utf8(content);
  // Said plainly rather than as a bare "not found": a typed `../x` names no place to create.
  if (typeof rel === "string" && rel.split("/").includes("..")) {
    throw new ValidationError(`"${rel}" leaves the workspace: a new file stays inside it`, "path");
  }
  if (opts.parents) {
    const clean = checkRelativePath(rel).split("/").filter((p) => p !== "" && p !== ".");
    await createMissingFolders(workspace, clean.slice(0, -1).join("/"), protect);
  }
  const e = await openEntry(workspace, rel, protect);
  try {
    checkNewName(e.leaf);
    if (e.stat) throw new ValidationError(`A file named "${e.leaf}" already exists`);
    let fd = -1;
    try {
      fd = openBeneath(e.dir.fd, e.leaf, O.WRONLY | O.CREAT | O.EXCL, {
        mode: 0o644,
        noSymlinks: true,
      });
      writeFdAll(fd, bytes);
    } catch (err) {
      translate(err, e.leaf);
    } finally {
      if (fd !== -1) closeFd(fd);
    }
    return { ok: true, path: e.rel };
  } finally {
    e.dir.close();
  }
}

/** POST /api/file/create-dir: a new folder (400 when the name is taken). */
export async function createDir(
  workspace: string,
  rel: string,
  protect?: ProtectedPathsConfig,
): Promise<{ ok: true; path: string }> {
  const e = await openEntry(workspace, rel, protect);
  try {
    checkNewName(e.leaf);
    if (e.stat) throw new ValidationError(`Path already exists: "${e.rel}"`);
    try {
      mkdirAt(e.dir.fd, e.leaf);
    } catch (err) {
      translate(err, e.leaf);
    }
    return { ok: true, path: e.rel };
  } finally {
    e.dir.close();
  }
}

/** What the editor knew when it opened the file; a save against another base is a conflict. */
export interface SaveBase {
  expected_sha256?: string;
  /** Epoch seconds, as GET /api/file returned it. */
  expected_mtime?: number;
}

/**
 * POST /api/file/save: replace an existing regular file's content. The file is opened beneath
 * the root (a symlink inside the workspace is followed through the guard, never out of it), its
 * current bytes are hashed on the very fd that is then written, and when they are not the base
 * the editor opened the answer is a 409 carrying the current hash and mtime.
 */
export async function saveFile(
  workspace: string,
  rel: string,
  content: unknown,
  base: SaveBase,
  protect?: ProtectedPathsConfig,
): Promise<{ ok: true; path: string; size: number; mtime: number | null; sha256: string }> {
  const bytes = utf8(content);
  const real = await resolveInWorkspace(workspace, rel, { mustExist: true });
  const root = await Deno.realPath(workspace);
  const target = relative(root, real);
  if (target === "") throw new ValidationError("Cannot save: path is a directory", "path");
  const e = await openEntry(workspace, target, protect);
  let fd = -1;
  try {
    if (!e.stat) throw new NotFoundError(`File not found: "${rel}"`);
    if (e.stat.type === "dir") throw new ValidationError("Cannot save: path is a directory");
    if (e.stat.type !== "file") throw new ValidationError("Cannot save: not a regular file");
    try {
      fd = openBeneath(e.dir.fd, e.leaf, O.RDWR | O.NONBLOCK, { noSymlinks: true });
    } catch (err) {
      translate(err, e.leaf);
    }
    const st = statFd(fd);
    if (st.type !== "file") throw new ValidationError("Cannot save: not a regular file");
    if (protect && st.nlink > 1) {
      const ids = new Set(await protectedFileIds(protect));
      if (ids.has(`${st.devNumber}:${st.ino}`)) throw new NotFoundError();
    }
    if (base.expected_sha256 !== undefined || base.expected_mtime !== undefined) {
      // A file larger than any save was not what the editor opened (and is never read whole).
      if (st.size > MAX_SAVE_BYTES) {
        throw new ConflictError(`"${e.rel}" changed on disk since it was opened`, {
          conflict: true,
          current_sha256: null,
          current_mtime: st.mtimeMs === null ? null : st.mtimeMs / 1000,
        });
      }
      const current = readFd(fd, MAX_SAVE_BYTES);
      const currentSha = await sha256Hex(current);
      const currentMtime = st.mtimeMs === null ? null : st.mtimeMs / 1000;
      const shaDiffers = base.expected_sha256 !== undefined &&
        base.expected_sha256 !== currentSha;
      const mtimeDiffers = base.expected_sha256 === undefined &&
        base.expected_mtime !== undefined && currentMtime !== null &&
        Math.abs(base.expected_mtime - currentMtime) > 0.001;
      if (shaDiffers || mtimeDiffers) {
        throw new ConflictError(`"${e.rel}" changed on disk since it was opened`, {
          conflict: true,
          current_sha256: currentSha,
          current_mtime: currentMtime,
        });
      }
    }
    try {
      writeFdAll(fd, bytes);
    } catch (err) {
      translate(err, e.leaf);
    }
    const after = statFd(fd);
    return {
      ok: true,
      path: e.rel,
      size: bytes.length,
      mtime: after.mtimeMs === null ? null : after.mtimeMs / 1000,
      sha256: await sha256Hex(bytes),
    };
  } finally {
    if (fd !== -1) closeFd(fd);
    e.dir.close();
  }
}

/** POST /api/file/rename: a new name in the same folder; the entry itself, never its target. */
export async function renameEntry(
  workspace: string,
  rel: string,
  newName: unknown,
  protect?: ProtectedPathsConfig,
): Promise<{ ok: true; old_path: string; new_path: string }> {
  const name = checkNewName(newName);
  const e = await openEntry(workspace, rel, protect);
  try {
    if (!e.stat) throw new NotFoundError(`File not found: "${rel}"`);
    const secrets = await secretList(protect);
    if (isProtectedPath(join(e.dir.real, name), secrets)) throw new NotFoundError();
    const newRel = e.dir.rel === "." ? name : `${e.dir.rel}/${name}`;
    if (name === e.leaf) return { ok: true, old_path: e.rel, new_path: newRel };
    try {
      renameAt(e.dir.fd, e.leaf, e.dir.fd, name);
    } catch (err) {
      translate(err, name);
    }
    return { ok: true, old_path: e.rel, new_path: newRel };
  } finally {
    e.dir.close();
  }
}

/** POST /api/file/move: into another folder of the workspace, keeping the name. */
export async function moveEntry(
  workspace: string,
  rel: string,
  destDir: unknown,
  protect?: ProtectedPathsConfig,
): Promise<{ ok: true; old_path: string; new_path: string }> {
  if (typeof destDir !== "string") throw new ValidationError("dest_dir is required", "dest_dir");
  const e = await openEntry(workspace, rel, protect);
  try {
    if (!e.stat) throw new NotFoundError(`File not found: "${rel}"`);
    let dest: HeldDir;
    try {
      dest = await openWorkspaceDir(workspace, destDir.trim() || ".", protect);
    } catch (err) {
      if (err instanceof NotFoundError) throw new NotFoundError("Destination folder not found");
      throw err;
    }
    try {
      const source = join(e.dir.real, e.leaf);
      if (
        e.stat.type === "dir" && (dest.real === source || dest.real.startsWith(source + "/"))
      ) {
        throw new ValidationError("Cannot move a folder into itself or its subfolder");
      }
      // Moving a folder named like a protected one (`.ssh`) to where that one lives would
      // create it: refused like the protected path itself.
      const secrets = await secretList(protect);
      if (isProtectedPath(join(dest.real, e.leaf), secrets)) throw new NotFoundError();
      const newRel = dest.rel === "." ? e.leaf : `${dest.rel}/${e.leaf}`;
      if (dest.real === e.dir.real) return { ok: true, old_path: e.rel, new_path: newRel };
      try {
        renameAt(e.dir.fd, e.leaf, dest.fd, e.leaf);
      } catch (err) {
        if (err instanceof SafeFsError && err.code === "EEXIST") {
          throw new ValidationError(`A file named "${e.leaf}" already exists in that folder`);
        }
        translate(err, e.leaf);
      }
      return { ok: true, old_path: e.rel, new_path: newRel };
    } finally {
      dest.close();
    }
  } finally {
    e.dir.close();
  }
}
