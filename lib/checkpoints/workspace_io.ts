// Host-side reads and writes of workspace files for checkpoints, race-free: every open goes
// beneath the workspace fd (safe_fs openat2 RESOLVE_BENEATH), refuses every symlink, opens only
// regular files (a FIFO cannot hang it), and never touches a protected path or a hard link to one.
import { join } from "node:path";
import {
  closeFd,
  findLibc,
  initSafeFs,
  lstatAt,
  mkdirAt,
  O,
  openBeneath,
  openRootDir,
  readFd,
  SafeFsError,
  statFd,
  unlinkAt,
  writeFdAll,
} from "../sandbox/safe_fs.ts";
import { checkRelativePath } from "../workspace/workspace_paths.ts";
import {
  isProtectedPath,
  protectedFileIds,
  type ProtectedPathsConfig,
  realSecretPaths,
} from "../workspace/protected_paths.ts";

/** A file as captured: its bytes, or that it did not exist, or why it could not be kept. */
export type Captured =
  | { kind: "file"; bytes: Uint8Array }
  | { kind: "absent" }
  | { kind: "skipped"; reason: string };

/** The protected paths and hard-link ids to refuse (computed once per operation). */
export interface Guard {
  paths: string[];
  ids: Set<string>;
}

export async function makeGuard(config: ProtectedPathsConfig): Promise<Guard> {
  return { paths: await realSecretPaths(config), ids: new Set(await protectedFileIds(config)) };
}

let ready: boolean | null = null;
function safeFs(): boolean {
  if (ready === null) {
    const libc = findLibc();
    try {
      if (libc) initSafeFs(libc);
      ready = libc !== null;
    } catch {
      ready = false;
    }
  }
  return ready;
}

/** A workspace-relative path in one canonical spelling ("a/b.txt"), or null when hostile. */
export function normalizeRel(path: unknown): string | null {
  if (typeof path !== "string" || path === "") return null;
  try {
    const rel = checkRelativePath(path);
    const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
    return parts.length ? parts.join("/") : null;
  } catch {
    return null;
  }
}

function withRoot<T>(root: string, fn: (fd: number) => T): T {
  if (!safeFs()) throw new SafeFsError("ENOSYS", "safe_fs unavailable");
  const fd = openRootDir(root);
  try {
    return fn(fd);
  } finally {
    closeFd(fd);
  }
}

/** Read `rel` (at most `maxBytes`) beneath the workspace `root` (a real path). */
export function readCaptured(root: string, rel: string, guard: Guard, maxBytes: number): Captured {
  if (isProtectedPath(join(root, rel), guard.paths)) {
    return { kind: "skipped", reason: "protected" };
  }
  try {
    return withRoot(root, (rootFd) => {
      let fd: number;
      try {
        fd = openBeneath(rootFd, rel, O.RDONLY | O.NONBLOCK | O.NOFOLLOW, { noSymlinks: true });
      } catch (err) {
        const code = (err as SafeFsError).code;
        if (code === "ENOENT") return { kind: "absent" } as const;
        return { kind: "skipped", reason: code === "ELOOP" ? "symlink" : String(code) } as const;
      }
      try {
        const st = statFd(fd);
        if (st.type !== "file") return { kind: "skipped", reason: st.type } as const;
        if (guard.ids.has(`${st.devNumber}:${st.ino}`)) {
          return { kind: "skipped", reason: "protected" } as const;
        }
        if (st.size > maxBytes) return { kind: "skipped", reason: "too large" } as const;
        const bytes = readFd(fd, maxBytes);
        if (bytes.length > maxBytes) return { kind: "skipped", reason: "too large" } as const;
        return { kind: "file", bytes: bytes.slice() } as const;
      } finally {
        closeFd(fd);
      }
    });
  } catch (err) {
    return { kind: "skipped", reason: (err as Error).message };
  }
}

/** Write `bytes` to `rel` (parents created), beneath `root`. Throws SafeFsError on refusal. */
export function writeFile(root: string, rel: string, bytes: Uint8Array, guard: Guard): void {
  if (isProtectedPath(join(root, rel), guard.paths)) throw new SafeFsError("EACCES", "write");
  withRoot(root, (rootFd) => {
    const parts = rel.split("/");
    for (let i = 0; i < parts.length - 1; i++) {
      const parent = i === 0 ? rootFd : openBeneath(
        rootFd,
        parts.slice(0, i).join("/"),
        O.RDONLY | O.DIRECTORY,
        { noSymlinks: true },
      );
      try {
        mkdirAt(parent, parts[i]);
      } finally {
        if (parent !== rootFd) closeFd(parent);
      }
    }
    const fd = openBeneath(rootFd, rel, O.WRONLY | O.CREAT | O.NONBLOCK | O.NOFOLLOW, {
      mode: 0o644,
      noSymlinks: true,
    });
    try {
      const st = statFd(fd);
      if (st.type !== "file") throw new SafeFsError("EISDIR", "write");
      if (guard.ids.has(`${st.devNumber}:${st.ino}`)) throw new SafeFsError("EACCES", "write");
      writeFdAll(fd, bytes);
    } finally {
      closeFd(fd);
    }
  });
}

/**
 * Remove the file (or symlink) `rel` beneath `root`: its parent is opened beneath the root and
 * the name unlinked through that fd (/proc/self/fd), so a swapped parent cannot redirect it.
 * A directory there is left alone (false); a missing file is not an error.
 */
export function removeFile(root: string, rel: string, guard: Guard): boolean {
  if (isProtectedPath(join(root, rel), guard.paths)) throw new SafeFsError("EACCES", "remove");
  if (!safeFs()) throw new SafeFsError("ENOSYS", "safe_fs unavailable");
  const rootFd = openRootDir(root);
  const slash = rel.lastIndexOf("/");
  const name = rel.slice(slash + 1);
  let dirFd = rootFd;
  try {
    if (slash > 0) {
      try {
        dirFd = openBeneath(rootFd, rel.slice(0, slash), O.RDONLY | O.DIRECTORY, {
          noSymlinks: true,
        });
      } catch (err) {
        if ((err as SafeFsError).code === "ENOENT") return true;
        throw err;
      }
    }
    let st;
    try {
      st = lstatAt(dirFd, name);
    } catch (err) {
      if ((err as SafeFsError).code === "ENOENT") return true;
      throw err;
    }
    if (st.type === "dir") return false;
    // Through the held directory handle (Deno refuses /proc/self/fd paths short of -A).
    unlinkAt(dirFd, name);
    return true;
  } finally {
    if (dirFd !== rootFd) closeFd(dirFd);
    closeFd(rootFd);
  }
}
