// Race-free file access beneath a directory handle, through libc (Deno FFI): every open starts
// from the workspace's directory fd with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so the
// kernel itself refuses `..`, absolute paths and symlinks that leave the tree at the moment of the
// lookup — a neighbour swapping a directory for a symlink cannot redirect it. All I/O then goes
// through that fd only. Linux only (x86_64, aarch64); on kernels without openat2 (< 5.6) every
// path component is opened with O_NOFOLLOW instead (symlinks are then refused, never followed).
//
// Why FFI: Deno has no openat, its permission checks look at path strings (a symlink swap defeats
// them), node:fs has no fd-relative calls, and Deno refuses /proc/self/fd/N paths without
// --allow-all. libc is the smallest sound primitive; the Worker is granted FFI for libc alone.

/** A failed call: `code` is the errno name (ENOENT, EXDEV, ELOOP…). */
export class SafeFsError extends Error {
  constructor(readonly code: string, readonly op: string) {
    super(`${op}: ${code}`);
    this.name = "SafeFsError";
  }
}

export interface SafeStat {
  type: "file" | "dir" | "symlink" | "other";
  size: number;
  mtimeMs: number | null;
  dev: string;
  /** st_dev as stat(2) reports it (glibc makedev), comparable with Deno.FileInfo.dev. */
  devNumber: number;
  ino: string;
  nlink: number;
}

export interface SafeDirEntry {
  name: string;
  type: "file" | "dir" | "symlink" | "other" | "unknown";
}

const ARCH_FLAGS = {
  x86_64: { O_DIRECTORY: 0o200000, O_NOFOLLOW: 0o400000 },
  aarch64: { O_DIRECTORY: 0o40000, O_NOFOLLOW: 0o100000 },
} as const;
const arch = ARCH_FLAGS[Deno.build.arch as keyof typeof ARCH_FLAGS] ?? ARCH_FLAGS.x86_64;

/** open(2) flags for this platform. */
export const O = {
  RDONLY: 0,
  WRONLY: 1,
  RDWR: 2,
  CREAT: 0o100,
  EXCL: 0o200,
  NOCTTY: 0o400,
  NONBLOCK: 0o4000,
  DIRECTORY: arch.O_DIRECTORY,
  NOFOLLOW: arch.O_NOFOLLOW,
  CLOEXEC: 0o2000000,
  PATH: 0o10000000,
} as const;

const RESOLVE_NO_MAGICLINKS = 0x02n;
const RESOLVE_NO_SYMLINKS = 0x04n;
const RESOLVE_BENEATH = 0x08n;
const SYS_OPENAT2 = 437n; // same number on every architecture
const AT_FDCWD = -100;
const AT_SYMLINK_NOFOLLOW = 0x100;
const AT_EMPTY_PATH = 0x1000;
const STATX_BASIC_STATS = 0x7ff;

const ERRNO: Record<number, string> = {
  1: "EPERM",
  2: "ENOENT",
  4: "EINTR",
  6: "ENXIO",
  9: "EBADF",
  11: "EAGAIN",
  13: "EACCES",
  17: "EEXIST",
  18: "EXDEV",
  20: "ENOTDIR",
  21: "EISDIR",
  22: "EINVAL",
  24: "EMFILE",
  27: "EFBIG",
  28: "ENOSPC",
  30: "EROFS",
  36: "ENAMETOOLONG",
  38: "ENOSYS",
  39: "ENOTEMPTY",
  40: "ELOOP",
  95: "EOPNOTSUPP",
  122: "EDQUOT",
};

const SYMBOLS = {
  openat: { parameters: ["i32", "buffer", "i32", "u32"], result: "i32" },
  syscall: { parameters: ["i64", "i64", "buffer", "buffer", "u64"], result: "i64" },
  close: { parameters: ["i32"], result: "i32" },
  pread: { parameters: ["i32", "buffer", "usize", "i64"], result: "isize" },
  pwrite: { parameters: ["i32", "buffer", "usize", "i64"], result: "isize" },
  ftruncate: { parameters: ["i32", "i64"], result: "i32" },
  statx: { parameters: ["i32", "buffer", "i32", "u32", "buffer"], result: "i32" },
  mkdirat: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
  unlinkat: { parameters: ["i32", "buffer", "i32"], result: "i32" },
  fdopendir: { parameters: ["i32"], result: "pointer" },
  readdir: { parameters: ["pointer"], result: "pointer" },
  closedir: { parameters: ["pointer"], result: "i32" },
  readlink: { parameters: ["buffer", "buffer", "usize"], result: "isize" },
  __errno_location: { parameters: [], result: "pointer" },
  // Pointer views need FFI on everything; copying through libc keeps the grant to libc alone.
  memcpy: { parameters: ["buffer", "pointer", "usize"], result: "pointer" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];
let libc: Libc | null = null;
let hasOpenat2 = true;

/** Where glibc usually lives; the pool passes the one it finds to the Worker's FFI grant. */
export const LIBC_CANDIDATES = [
  "/lib/x86_64-linux-gnu/libc.so.6",
  "/lib/aarch64-linux-gnu/libc.so.6",
  "/usr/lib/x86_64-linux-gnu/libc.so.6",
  "/usr/lib/aarch64-linux-gnu/libc.so.6",
  "/lib64/libc.so.6",
  "/usr/lib64/libc.so.6",
  "/usr/lib/libc.so.6",
];

/** The absolute path of libc on this machine, or null (not Linux/glibc: file tools refuse). */
export function findLibc(): string | null {
  if (Deno.build.os !== "linux") return null;
  for (const p of LIBC_CANDIDATES) {
    try {
      if (Deno.statSync(p).isFile) return Deno.realPathSync(p);
    } catch { /* next */ }
  }
  return null;
}

/** Load libc from `path` (once per thread). Throws when FFI is not permitted. */
export function initSafeFs(path: string): void {
  if (libc) return;
  libc = Deno.dlopen(path, SYMBOLS).symbols;
}

/** Tests only: take the pre-5.6 path (per-component O_NOFOLLOW) even where openat2 exists. */
export function useOpenat2ForTests(enabled: boolean): void {
  hasOpenat2 = enabled;
}

function lib(): Libc {
  if (!libc) throw new SafeFsError("ENOLIBC", "init");
  return libc;
}

const enc = new TextEncoder();
const cstr = (s: string) => enc.encode(s + "\0");

/** Copy `n` bytes at the native pointer `p` into a new buffer. */
function peek(p: Deno.PointerObject, n: number): Uint8Array {
  const out = new Uint8Array(n);
  lib().memcpy(out, p, BigInt(n));
  return out;
}

function errnoName(): string {
  const p = lib().__errno_location();
  const n = p ? new DataView(peek(p, 4).buffer).getInt32(0, true) : 0;
  return ERRNO[n] ?? `E${n}`;
}

function check(n: number | bigint, op: string): number {
  const v = Number(n);
  if (v < 0) throw new SafeFsError(errnoName(), op);
  return v;
}

/** Open a directory by absolute path (the workspace root, itself a trusted real path). */
export function openRootDir(path: string): number {
  return check(
    lib().openat(AT_FDCWD, cstr(path), O.RDONLY | O.DIRECTORY | O.NOFOLLOW | O.CLOEXEC, 0),
    "open root",
  );
}

/**
 * Open `rel` beneath the directory `dirFd`: the kernel refuses any step (`..`, an absolute
 * symlink, a symlink climbing out) that would leave it (EXDEV). `noSymlinks` refuses every
 * symlink on the way. Retries EAGAIN (a concurrent rename the kernel could not rule out).
 */
export function openBeneath(
  dirFd: number,
  rel: string,
  flags: number,
  opts: { mode?: number; noSymlinks?: boolean } = {},
): number {
  if (rel === "" || rel.startsWith("/") || rel.includes("\0")) {
    throw new SafeFsError("EXDEV", "open");
  }
  const mode = (flags & O.CREAT) ? (opts.mode ?? 0o666) : 0;
  if (hasOpenat2) {
    const how = new BigUint64Array([
      BigInt(flags | O.CLOEXEC),
      BigInt(mode),
      RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | (opts.noSymlinks ? RESOLVE_NO_SYMLINKS : 0n),
    ]);
    const path = cstr(rel);
    for (let attempt = 0; attempt < 16; attempt++) {
      const r = Number(
        lib().syscall(SYS_OPENAT2, BigInt(dirFd), path, new Uint8Array(how.buffer), 24n),
      );
      if (r >= 0) return r;
      const code = errnoName();
      if (code === "EAGAIN" || code === "EINTR") continue;
      if (code === "ENOSYS") {
        hasOpenat2 = false;
        break;
      }
      throw new SafeFsError(code, "open");
    }
    if (hasOpenat2) throw new SafeFsError("EAGAIN", "open");
  }
  return openByComponents(dirFd, rel, flags, mode);
}

/** The pre-5.6 fallback: one openat per component, none of them followed if it is a link. */
function openByComponents(dirFd: number, rel: string, flags: number, mode: number): number {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..")) throw new SafeFsError("EXDEV", "open");
  if (parts.length === 0) parts.push(".");
  let cur = dirFd;
  try {
    for (let i = 0; i < parts.length - 1; i++) {
      const next = check(
        lib().openat(cur, cstr(parts[i]), O.PATH | O.DIRECTORY | O.NOFOLLOW | O.CLOEXEC, 0),
        "open",
      );
      if (cur !== dirFd) closeFd(cur);
      cur = next;
    }
    return check(
      lib().openat(cur, cstr(parts.at(-1)!), flags | O.NOFOLLOW | O.CLOEXEC, mode),
      "open",
    );
  } finally {
    if (cur !== dirFd) closeFd(cur);
  }
}

export function closeFd(fd: number): void {
  if (fd >= 0) lib().close(fd);
}

function makedev(major: number, minor: number): number {
  const ma = BigInt(major);
  const mi = BigInt(minor);
  return Number(
    ((ma & 0xfffn) << 8n) | ((ma & ~0xfffn) << 32n) | (mi & 0xffn) | ((mi & ~0xffn) << 12n),
  );
}

function decodeStat(buf: Uint8Array): SafeStat {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const mode = v.getUint16(28, true) & 0o170000;
  const sec = Number(v.getBigInt64(112, true));
  const nsec = v.getUint32(120, true);
  return {
    type: mode === 0o100000
      ? "file"
      : mode === 0o040000
      ? "dir"
      : mode === 0o120000
      ? "symlink"
      : "other",
    size: Number(v.getBigUint64(40, true)),
    mtimeMs: sec * 1000 + Math.floor(nsec / 1e6),
    dev: `${v.getUint32(136, true)}:${v.getUint32(140, true)}`,
    devNumber: makedev(v.getUint32(136, true), v.getUint32(140, true)),
    ino: v.getBigUint64(32, true).toString(),
    nlink: v.getUint32(16, true),
  };
}

/** fstat of an open fd. */
export function statFd(fd: number): SafeStat {
  const buf = new Uint8Array(256);
  check(lib().statx(fd, cstr(""), AT_EMPTY_PATH, STATX_BASIC_STATS, buf), "stat");
  return decodeStat(buf);
}

/** lstat of one entry `name` (no slashes) of the directory `dirFd`. */
export function lstatAt(dirFd: number, name: string): SafeStat {
  if (name.includes("/")) throw new SafeFsError("EINVAL", "stat");
  const buf = new Uint8Array(256);
  check(lib().statx(dirFd, cstr(name), AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, buf), "stat");
  return decodeStat(buf);
}

/** Read the whole file behind `fd`, at most `max` bytes (one more tells the caller it grew). */
export function readFd(fd: number, max: number): Uint8Array {
  const out = new Uint8Array(max + 1);
  let total = 0;
  while (total < out.length) {
    const n = check(
      lib().pread(fd, out.subarray(total), BigInt(out.length - total), BigInt(total)),
      "read",
    );
    if (n === 0) break;
    total += n;
  }
  return out.subarray(0, total);
}

/** pread into `buf` at `offset`: the bytes read (0 at the end of the file). */
export function readAt(fd: number, buf: Uint8Array, offset: number): number {
  return check(lib().pread(fd, buf, BigInt(buf.length), BigInt(offset)), "read");
}

/** pwrite all of `bytes` at `offset` (streaming writers keep their own offset). */
export function writeAt(fd: number, bytes: Uint8Array, offset: number): void {
  let done = 0;
  while (done < bytes.length) {
    const chunk = bytes.subarray(done);
    const n = check(
      lib().pwrite(fd, chunk, BigInt(chunk.length), BigInt(offset + done)),
      "write",
    );
    if (n === 0) throw new SafeFsError("EIO", "write");
    done += n;
  }
}

/** Replace the content of the file behind `fd` (opened for writing) with `bytes`. */
export function writeFdAll(fd: number, bytes: Uint8Array): void {
  check(lib().ftruncate(fd, 0n), "truncate");
  let done = 0;
  while (done < bytes.length) {
    const chunk = bytes.subarray(done);
    const n = check(lib().pwrite(fd, chunk, BigInt(chunk.length), BigInt(done)), "write");
    if (n === 0) throw new SafeFsError("EIO", "write");
    done += n;
  }
}

/** mkdir of one entry `name` (no slashes) in the directory `dirFd`; EEXIST is not an error. */
export function mkdirAt(dirFd: number, name: string): void {
  if (name.includes("/") || name === ".." || name === ".") {
    throw new SafeFsError("EINVAL", "mkdir");
  }
  const r = lib().mkdirat(dirFd, cstr(name), 0o777);
  if (r < 0) {
    const code = errnoName();
    if (code !== "EEXIST") throw new SafeFsError(code, "mkdir");
  }
}

/** renameat2(RENAME_NOREPLACE): move one entry between two directory fds, never overwriting. */
export function renameAt(fromDirFd: number, from: string, toDirFd: number, to: string): void {
  for (const n of [from, to]) {
    if (n.includes("/") || n === ".." || n === "." || n === "") {
      throw new SafeFsError("EINVAL", "rename");
    }
  }
  check(lib().renameat2(fromDirFd, cstr(from), toDirFd, cstr(to), 1), "rename");
}

/** unlinkat of one entry `name` of `dirFd` (a file or symlink; `dir` removes an empty folder). */
export function unlinkAt(dirFd: number, name: string, dir = false): void {
  if (name.includes("/") || name === ".." || name === "." || name === "") {
    throw new SafeFsError("EINVAL", "unlink");
  }
  check(lib().unlinkat(dirFd, cstr(name), dir ? 0x200 : 0), "unlink");
}

/** The entries of the directory open as `dirFd` (which stays open), without `.` and `..`. */
export function readDirFd(dirFd: number, maxEntries = Infinity): SafeDirEntry[] {
  const own = check(
    lib().openat(dirFd, cstr("."), O.RDONLY | O.DIRECTORY | O.CLOEXEC, 0),
    "opendir",
  );
  const dir = lib().fdopendir(own);
  if (!dir) {
    const code = errnoName();
    closeFd(own);
    throw new SafeFsError(code, "opendir");
  }
  const out: SafeDirEntry[] = [];
  const dec = new TextDecoder();
  try {
    while (out.length < maxEntries) {
      const ent = lib().readdir(dir);
      if (!ent) break;
      // struct dirent (glibc, 64-bit): d_ino u64, d_off i64, d_reclen u16, d_type u8, d_name[].
      const head = peek(ent, 19);
      const reclen = head[16] | (head[17] << 8);
      const raw = peek(ent, Math.max(19, Math.min(reclen, 19 + 256)));
      const dtype = raw[18];
      let len = 0;
      while (19 + len < raw.length && raw[19 + len] !== 0) len++;
      const name = dec.decode(raw.subarray(19, 19 + len));
      if (name === "." || name === "..") continue;
      out.push({
        name,
        type: dtype === 4
          ? "dir"
          : dtype === 8
          ? "file"
          : dtype === 10
          ? "symlink"
          : dtype === 0
          ? "unknown"
          : "other",
      });
    }
  } finally {
    lib().closedir(dir);
  }
  return out;
}

/**
 * The path the kernel holds for an open fd (/proc/self/fd/N, read through libc: Deno refuses
 * that path to anything short of --allow-all). A second, independent check on every open.
 */
export function fdPath(fd: number): string {
  const buf = new Uint8Array(4097);
  const n = check(lib().readlink(cstr(`/proc/self/fd/${fd}`), buf, 4096n), "readlink");
  return new TextDecoder().decode(buf.subarray(0, n));
}
