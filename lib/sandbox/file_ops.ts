// The file operations behind the agent's file tools, run inside the sandbox Worker. Invariants:
// every file is reached through safe_fs.ts — opened beneath the workspace's directory fd, the
// kernel refusing any step out of it (so a neighbour swapping a directory for a symlink cannot
// redirect a read or a write), then read or written through that fd only; the opened fd's real
// path is checked again (inside the root, not a protected path: protected_paths.ts) before one
// byte is read or written; new files are created only in an already-verified parent directory
// fd with O_EXCL. Failures return `{isError}` text, never throw.
import { checkRelativePath } from "../workspace/workspace_paths.ts";
import { isProtectedPath, isWithinPath } from "../workspace/protected_paths.ts";
import {
  closeFd,
  fdPath,
  lstatAt,
  mkdirAt,
  O,
  openBeneath,
  openRootDir,
  readDirFd,
  readFd,
  SafeFsError,
  type SafeStat,
  statFd,
  writeFdAll,
} from "./safe_fs.ts";
import { join, relative, sep } from "node:path";

/** What every operation is told besides its arguments. */
export interface FileOpGuard {
  /** Absolute real paths inside the workspace that are never shown or touched. */
  protected: readonly string[];
  /** `dev:ino` of protected files: refused under any name (a hard link into the workspace). */
  fileIds?: ReadonlySet<string>;
}

export interface FileOpResult {
  output: string;
  isError?: boolean;
}

/** Limits of the file tools, chosen so one call cannot flood the model's context. */
export const FILE_LIMITS = {
  /** read_file refuses files larger than this (use offset/limit on smaller ones). */
  maxReadFileBytes: 10 * 1024 * 1024,
  /** Characters of read_file output (numbered lines) before it stops and says where to resume. */
  maxReadOutputChars: 100_000,
  defaultReadLines: 500,
  maxReadLines: 2000,
  maxLineChars: 2000,
  maxWriteBytes: 10 * 1024 * 1024,
  maxListEntries: 500,
  /** Directory entries examined at most by list_directory (a folder of millions). */
  maxListScan: 100_000,
  maxSearchResults: 500,
  defaultSearchResults: 50,
  maxSearchFileBytes: 2 * 1024 * 1024,
  maxSearchFilesScanned: 20_000,
} as const;

/** Directories search_files never descends into. */
export const SKIPPED_DIRS = new Set([
  ".git",
  "node_modules",
  ".hg",
  ".svn",
  "__pycache__",
  ".venv",
]);

const fail = (output: string): FileOpResult => ({ output, isError: true });

const notFound = (path: string) =>
  fail(
    `Path "${path}" was not found in the workspace (paths are relative to the workspace root; ` +
      `absolute paths, ".." and links leading outside are refused).`,
  );
const notWritable = (path: string) =>
  fail(
    `Path "${path}" is outside the workspace or not writable (paths are relative to the ` +
      `workspace root; absolute paths, ".." and links leading outside are refused).`,
  );

/** Thrown inside an operation to end it with this result. */
class Refusal extends Error {
  constructor(readonly result: FileOpResult) {
    super(result.output);
  }
}

/**
 * One operation's view of the workspace: the root directory fd and every fd opened beneath it
 * (all closed by `close()`). `open` is the only way in, and it re-checks the opened fd's path.
 */
class Tree {
  private fds: number[] = [];
  private constructor(
    readonly root: string,
    readonly guard: FileOpGuard,
    readonly rootFd: number,
  ) {}

  static open(root: string, guard: FileOpGuard): Tree {
    const fd = openRootDir(root);
    const tree = new Tree(root, guard, fd);
    tree.fds.push(fd);
    // The pool hands out the root's real path; anything else means it moved under us.
    if (fdPath(fd) !== root || isProtectedPath(root, guard.protected)) {
      tree.close();
      throw new SafeFsError("EXDEV", "open root");
    }
    return tree;
  }

  /** True when the real path `abs` may be shown or touched. */
  allowed(abs: string): boolean {
    return isWithinPath(abs, this.root) && !isProtectedPath(abs, this.guard.protected);
  }

  /** Open `rel` beneath the root; returns the fd and its real path (both checked). */
  open(rel: string, flags: number, opts: { noSymlinks?: boolean } = {}): {
    fd: number;
    real: string;
  } {
    // O_PATH takes no other access flags (openat2 refuses them).
    const fd = openBeneath(this.rootFd, rel, flags & O.PATH ? flags : flags | O.NOCTTY, opts);
    this.fds.push(fd);
    const real = fdPath(fd);
    if (!this.allowed(real) || this.isProtectedFile(fd)) {
      this.release(fd);
      throw new SafeFsError("EXDEV", "open");
    }
    return { fd, real };
  }

  /** A hard link to a protected file (same inode, innocent name). */
  private isProtectedFile(fd: number): boolean {
    if (!this.guard.fileIds?.size) return false;
    const st = statFd(fd);
    return st.type === "file" && st.nlink > 1 &&
      this.guard.fileIds.has(`${st.devNumber}:${st.ino}`);
  }

  /** Create the new file `name` in the verified directory `dirFd` (never through a link). */
  create(dirFd: number, dirReal: string, name: string): { fd: number; real: string } {
    if (!this.allowed(join(dirReal, name))) throw new SafeFsError("EXDEV", "create");
    const fd = openBeneath(dirFd, name, O.WRONLY | O.CREAT | O.EXCL | O.NONBLOCK | O.NOCTTY, {
      mode: 0o666,
    });
    this.fds.push(fd);
    const real = fdPath(fd);
    if (!this.allowed(real)) {
      this.release(fd);
      throw new SafeFsError("EXDEV", "create");
    }
    return { fd, real };
  }

  /** `abs` (a real path inside the root) relative to the root, `/`-separated. */
  rel(abs: string): string {
    const r = relative(this.root, abs).split(sep).join("/");
    return r === "" ? "." : r;
  }

  release(fd: number): void {
    const i = this.fds.indexOf(fd);
    if (i !== -1) this.fds.splice(i, 1);
    closeFd(fd);
  }

  close(): void {
    for (const fd of this.fds.splice(0)) closeFd(fd);
  }
}

/** Run `fn` with the workspace open; refusals and unexpected errors become results. */
function withTree(
  root: string,
  guard: FileOpGuard,
  onRefused: FileOpResult,
  fn: (tree: Tree) => FileOpResult,
): FileOpResult {
  let tree: Tree;
  try {
    tree = Tree.open(root, guard);
  } catch (err) {
    if (err instanceof SafeFsError && err.code === "ENOLIBC") {
      return fail("The file sandbox is unavailable (it needs Linux with glibc).");
    }
    return fail(`The workspace ${root} cannot be opened.`);
  }
  try {
    return fn(tree);
  } catch (err) {
    if (err instanceof Refusal) return err.result;
    if (err instanceof SafeFsError) return onRefused;
    throw err;
  } finally {
    tree.close();
  }
}

/** The lexical guard (no absolute paths, `..`, NUL, URL or look-alike tricks) or a refusal. */
function lexical(path: string, onRefused: FileOpResult): string {
  try {
    return checkRelativePath(normalizeToolPath(path));
  } catch {
    throw new Refusal(onRefused);
  }
}

/** Models often write "./x" or "x/"; keep those working while the guard stays strict. */
function normalizeToolPath(path: string): string {
  let p = path.trim();
  while (p.startsWith("./")) p = p.slice(2);
  if (p.length > 1) p = p.replace(/\/+$/, "");
  return p === "" ? "." : p;
}

function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** read_file: numbered lines `offset`..`offset+limit-1` (1-based) of a UTF-8 text file. */
export function readFileOp(
  root: string,
  args: { path: string; offset?: number; limit?: number },
  guard: FileOpGuard = { protected: [] },
): FileOpResult {
  const refused = notFound(args.path);
  return withTree(root, guard, refused, (tree) => {
    const { fd } = tree.open(lexical(args.path, refused), O.RDONLY | O.NONBLOCK);
    const info = statFd(fd);
    if (info.type === "dir") return fail(`"${args.path}" is a directory; use list_directory.`);
    if (info.type !== "file") return fail(`"${args.path}" is not a regular file; not read.`);
    const tooBig = (size: number) =>
      fail(
        `"${args.path}" is ${formatBytes(size)}; read_file reads files up to ` +
          `${formatBytes(FILE_LIMITS.maxReadFileBytes)}. Use search_files to find the part you ` +
          `need, or terminal (head, sed -n 'A,Bp') to read a slice.`,
      );
    if (info.size > FILE_LIMITS.maxReadFileBytes) return tooBig(info.size);
    const bytes = readFd(fd, FILE_LIMITS.maxReadFileBytes);
    if (bytes.length > FILE_LIMITS.maxReadFileBytes) return tooBig(bytes.length);
    return numberedLines(args, bytes);
  });
}

function numberedLines(
  args: { path: string; offset?: number; limit?: number },
  bytes: Uint8Array,
): FileOpResult {
  if (looksBinary(bytes)) {
    return fail(
      `"${args.path}" looks like a binary file (${formatBytes(bytes.length)}); not shown.`,
    );
  }
  const text = new TextDecoder().decode(bytes);
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const total = text === "" ? 0 : lines.length;
  const offset = Math.max(1, args.offset ?? 1);
  const limit = Math.min(
    FILE_LIMITS.maxReadLines,
    Math.max(1, args.limit ?? FILE_LIMITS.defaultReadLines),
  );
  if (total === 0) return { output: `(${args.path} is empty)` };
  if (offset > total) {
    return fail(`offset ${offset} is past the end of "${args.path}", which has ${total} lines.`);
  }
  const end = Math.min(total, offset + limit - 1);
  const width = String(end).length;
  const out: string[] = [];
  let chars = 0;
  let last = offset - 1;
  for (let n = offset; n <= end; n++) {
    let line = lines[n - 1].replace(/\r$/, "");
    if (line.length > FILE_LIMITS.maxLineChars) {
      line = line.slice(0, FILE_LIMITS.maxLineChars) +
        ` … [line cut: ${line.length - FILE_LIMITS.maxLineChars} more characters]`;
    }
    const row = `${String(n).padStart(width, " ")}|${line}`;
    if (chars + row.length > FILE_LIMITS.maxReadOutputChars && out.length > 0) break;
    out.push(row);
    chars += row.length + 1;
    last = n;
  }
  if (last < total) {
    out.push(`(showing lines ${offset}-${last} of ${total}; continue with offset=${last + 1})`);
  }
  return { output: out.join("\n") };
}

/** The directory `parts` beneath the root, created as needed; each step checked. */
function ensureDir(tree: Tree, parts: string[]): { fd: number; real: string } {
  let cur = tree.open(".", O.RDONLY | O.DIRECTORY);
  for (let i = 0; i < parts.length; i++) {
    const prefix = parts.slice(0, i + 1).join("/");
    let next: { fd: number; real: string };
    try {
      next = tree.open(prefix, O.RDONLY | O.DIRECTORY);
    } catch (err) {
      if (!(err instanceof SafeFsError) || err.code !== "ENOENT") throw err;
      // Created inside the directory fd just verified, never through a path string.
      if (!tree.allowed(join(cur.real, parts[i]))) throw new SafeFsError("EXDEV", "mkdir");
      mkdirAt(cur.fd, parts[i]);
      next = tree.open(prefix, O.RDONLY | O.DIRECTORY);
    }
    tree.release(cur.fd);
    cur = next;
  }
  return cur;
}

/** write_file: create or overwrite a file with `content`, creating parent directories. */
export function writeFileOp(
  root: string,
  args: { path: string; content: string },
  guard: FileOpGuard = { protected: [] },
): FileOpResult {
  const bytes = new TextEncoder().encode(args.content);
  if (bytes.length > FILE_LIMITS.maxWriteBytes) {
    return fail(
      `Content is ${formatBytes(bytes.length)}; write_file writes up to ` +
        `${formatBytes(FILE_LIMITS.maxWriteBytes)}.`,
    );
  }
  const refused = notWritable(args.path);
  return withTree(root, guard, refused, (tree) => {
    const rel = lexical(args.path, refused);
    const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
    if (parts.length === 0) return fail(`"${args.path}" is the workspace root, not a file.`);
    const name = parts.pop()!;
    const parent = ensureDir(tree, parts);
    let target: { fd: number; real: string };
    let existed = true;
    try {
      // An existing file (or a link to one that stays inside) is written in place.
      target = tree.open(rel, O.WRONLY | O.NONBLOCK);
    } catch (err) {
      if (!(err instanceof SafeFsError)) throw err;
      if (err.code === "EISDIR") {
        return fail(`"${args.path}" is a directory; cannot write it as a file.`);
      }
      if (err.code === "ENXIO") return fail(`"${args.path}" is not a regular file.`);
      if (err.code !== "ENOENT") throw err;
      // Not there: create it in the verified parent; O_EXCL never follows a (dangling) link.
      target = tree.create(parent.fd, parent.real, name);
      existed = false;
    }
    const info = statFd(target.fd);
    if (info.type !== "file") return fail(`"${args.path}" is not a regular file.`);
    try {
      writeFdAll(target.fd, bytes);
    } catch (err) {
      return fail(`Cannot write "${args.path}": ${(err as Error).message}`);
    }
    const lines = args.content === "" ? 0 : args.content.split("\n").length;
    return {
      output: `${existed ? "Overwrote" : "Created"} ${tree.rel(target.real)} (${bytes.length} ` +
        `bytes, ${lines} lines).`,
    };
  });
}

function countOccurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  let i = haystack.indexOf(needle);
  while (i !== -1) {
    at.push(i);
    i = haystack.indexOf(needle, i + needle.length);
  }
  return at;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** patch: replace the exact text `old_string` with `new_string` (once, or everywhere). */
export function patchOp(
  root: string,
  args: { path: string; old_string: string; new_string: string; replace_all?: boolean },
  guard: FileOpGuard = { protected: [] },
): FileOpResult {
  if (args.old_string === "") {
    return fail("old_string is empty; give the exact text to replace (use write_file to create).");
  }
  if (args.old_string === args.new_string) {
    return fail("old_string and new_string are identical; nothing to change.");
  }
  const refused = notFound(args.path);
  return withTree(root, guard, refused, (tree) => {
    // Read and written through one fd: the bytes replaced are the bytes that were read.
    const { fd, real } = tree.open(lexical(args.path, refused), O.RDWR | O.NONBLOCK);
    const info = statFd(fd);
    if (info.type === "dir") return fail(`"${args.path}" is a directory.`);
    if (info.type !== "file") return fail(`"${args.path}" is not a regular file.`);
    const tooBig = (size: number) =>
      fail(
        `"${args.path}" is ${formatBytes(size)}; patch edits files up to ` +
          `${formatBytes(FILE_LIMITS.maxReadFileBytes)}.`,
      );
    if (info.size > FILE_LIMITS.maxReadFileBytes) return tooBig(info.size);
    const bytes = readFd(fd, FILE_LIMITS.maxReadFileBytes);
    if (bytes.length > FILE_LIMITS.maxReadFileBytes) return tooBig(bytes.length);
    return patchText(args, new TextDecoder().decode(bytes), (updated) => {
      writeFdAll(fd, new TextEncoder().encode(updated));
      return tree.rel(real);
    });
  });
}

function patchText(
  args: { path: string; old_string: string; new_string: string; replace_all?: boolean },
  text: string,
  write: (updated: string) => string,
): FileOpResult {
  const hits = countOccurrences(text, args.old_string);
  if (hits.length === 0) {
    const hint = fuzzyHint(text, args.old_string);
    return fail(
      `old_string was not found in "${args.path}" (0 matches). It must match the file exactly, ` +
        `including whitespace and indentation; read the file again before retrying.${hint}`,
    );
  }
  if (hits.length > 1 && !args.replace_all) {
    const lines = hits.slice(0, 10).map((i) => lineOf(text, i)).join(", ");
    return fail(
      `old_string matches ${hits.length} times in "${args.path}" (at lines ${lines}` +
        `${hits.length > 10 ? ", …" : ""}); include more surrounding context to make it unique, ` +
        `or set replace_all to true.`,
    );
  }
  const updated = args.replace_all
    ? text.split(args.old_string).join(args.new_string)
    : text.slice(0, hits[0]) + args.new_string + text.slice(hits[0] + args.old_string.length);
  const rel = write(updated);
  const first = lineOf(text, hits[0]);
  return {
    output: `Patched ${rel}: replaced ${hits.length} occurrence${hits.length > 1 ? "s" : ""}` +
      ` (first at line ${first}).\n${miniDiff(args.old_string, args.new_string, first)}`,
  };
}

function miniDiff(oldText: string, newText: string, line: number): string {
  const cap = (lines: string[], mark: string) => {
    const shown = lines.slice(0, 20).map((l) => `${mark} ${l}`);
    if (lines.length > 20) shown.push(`${mark} … ${lines.length - 20} more lines`);
    return shown;
  };
  return [`@@ line ${line} @@`, ...cap(oldText.split("\n"), "-"), ...cap(newText.split("\n"), "+")]
    .join("\n");
}

/** When an exact match fails, say whether a whitespace-insensitive one exists and where. */
function fuzzyHint(text: string, needle: string): string {
  const squash = (s: string) => s.replace(/\s+/g, " ").trim();
  const target = squash(needle);
  if (target === "") return "";
  const first = needle.trim().split("\n")[0].trim();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (first && lines[i].trim() === first) {
      const window = lines.slice(i, i + needle.split("\n").length).join("\n");
      if (squash(window) === target) {
        return ` A match differing only in whitespace exists at line ${i + 1}.`;
      }
      return ` The first line of old_string appears at line ${
        i + 1
      }, but the following lines differ.`;
    }
  }
  return "";
}

interface ListedEntry {
  name: string;
  type: "dir" | "file" | "symlink";
  size: number;
}

/** What an entry of the directory `dir` is, following a link only when it stays inside. */
function describeEntry(
  tree: Tree,
  dir: { fd: number; real: string },
  name: string,
  hint: string,
): { type: ListedEntry["type"]; size: number; linkedType?: "dir" | "file" } {
  let st: SafeStat;
  try {
    st = lstatAt(dir.fd, name);
  } catch {
    return { type: hint === "dir" ? "dir" : "file", size: 0 }; // vanished while listing
  }
  if (st.type !== "symlink") return { type: st.type === "dir" ? "dir" : "file", size: st.size };
  // Say what the link is only when it stays inside (and is not protected); never describe
  // outside targets.
  try {
    const target = tree.open(tree.rel(join(dir.real, name)), O.PATH);
    const t = statFd(target.fd);
    tree.release(target.fd);
    // (Without openat2, O_PATH opens the link itself: still just a link.)
    if (t.type === "symlink") return { type: "symlink", size: st.size };
    return { type: t.type === "dir" ? "dir" : "file", size: t.size };
  } catch {
    return { type: "symlink", size: st.size };
  }
}

/** list_directory: the entries of a workspace directory, directories first. */
export function listDirectoryOp(
  root: string,
  args: { path?: string },
  guard: FileOpGuard = { protected: [] },
): FileOpResult {
  const path = args.path ?? ".";
  const refused = notFound(path);
  return withTree(root, guard, refused, (tree) => {
    let dir: { fd: number; real: string };
    try {
      dir = tree.open(lexical(path, refused), O.RDONLY | O.DIRECTORY);
    } catch (err) {
      if (err instanceof SafeFsError && err.code === "ENOTDIR") {
        return fail(`"${path}" is a file, not a directory; use read_file.`);
      }
      throw err;
    }
    const entries: ListedEntry[] = [];
    for (const e of readDirFd(dir.fd, FILE_LIMITS.maxListScan)) {
      // Protected entries (state dir, config, credentials) are not even named.
      if (!tree.allowed(join(dir.real, e.name))) continue;
      const d = describeEntry(tree, dir, e.name, e.type);
      entries.push({ name: e.name, type: d.type, size: d.size });
    }
    const rank = (t: ListedEntry["type"]) => (t === "dir" ? 0 : 1);
    entries.sort((a, b) =>
      rank(a.type) - rank(b.type) ||
      a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.name.localeCompare(b.name)
    );
    const rel = tree.rel(dir.real);
    if (entries.length === 0) return { output: `${rel}/ is empty.` };
    const shown = entries.slice(0, FILE_LIMITS.maxListEntries);
    const lines = shown.map((e) =>
      e.type === "dir"
        ? `${e.name}/`
        : `${e.name}${e.type === "symlink" ? " -> (link)" : ""}  (${formatBytes(e.size)})`
    );
    const header = `${rel === "." ? "./" : rel + "/"} — ${entries.length} entr${
      entries.length === 1 ? "y" : "ies"
    }`;
    if (entries.length > shown.length) {
      lines.push(`… ${entries.length - shown.length} more entries not shown`);
    }
    return { output: [header, ...lines].join("\n") };
  });
}

/** Convert a glob (`*`, `**`, `?`, `[abc]`, `{a,b}`) into an anchored RegExp. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        i++;
        if (glob[i + 1] === "/") {
          i++;
          re += "(?:.*/)?";
        } else re += ".*";
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close === -1) re += "\\[";
      else {
        let body = glob.slice(i + 1, close).replace(/\\/g, "\\\\");
        if (body.startsWith("!")) body = "^" + body.slice(1);
        re += `[${body}]`;
        i = close;
      }
    } else if (c === "{") {
      inGroup++;
      re += "(?:";
    } else if (c === "}" && inGroup > 0) {
      inGroup--;
      re += ")";
    } else if (c === "," && inGroup > 0) re += "|";
    else re += c.replace(/[.+^$()|\\\]{}]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** search_files: regex over file contents, or a glob over file names; capped and sorted. */
export function searchFilesOp(
  root: string,
  args: {
    pattern: string;
    target?: "content" | "files";
    path?: string;
    file_glob?: string;
    limit?: number;
    case_insensitive?: boolean;
  },
  guard: FileOpGuard = { protected: [] },
): FileOpResult {
  const target = args.target ?? "content";
  const limit = Math.min(
    FILE_LIMITS.maxSearchResults,
    Math.max(1, args.limit ?? FILE_LIMITS.defaultSearchResults),
  );
  const refused = notFound(args.path ?? ".");
  return withTree(root, guard, refused, (tree) => {
    const base = tree.open(lexical(args.path ?? ".", refused), O.PATH);
    const baseInfo = statFd(base.fd);
    tree.release(base.fd);
    let matcher: RegExp;
    try {
      matcher = target === "content"
        ? new RegExp(args.pattern, args.case_insensitive ? "i" : "")
        : globToRegExp(args.pattern);
    } catch (err) {
      return fail(
        `Invalid ${target === "content" ? "regular expression" : "glob"} ` +
          `"${args.pattern}": ${(err as Error).message}`,
      );
    }
    let fileFilter: RegExp | null = null;
    if (args.file_glob) fileFilter = globToRegExp(args.file_glob);
    const matchName = (re: RegExp, rel: string) =>
      re.test(rel) || re.test(rel.slice(rel.lastIndexOf("/") + 1));

    const results: string[] = [];
    let total = 0;
    let scanned = 0;
    let truncatedScan = false;
    const admit = () => {
      scanned++;
      if (scanned > FILE_LIMITS.maxSearchFilesScanned) {
        truncatedScan = true;
        return false;
      }
      return true;
    };
    const baseRel = tree.rel(base.real);
    const files: Iterable<WalkedFile> = baseInfo.type === "dir"
      ? walk(tree, baseRel, admit)
      : baseInfo.type === "file"
      ? [{ rel: baseRel, follow: false }]
      : [];
    for (const file of files) {
      const rel = file.rel;
      if (target === "files") {
        if (matchName(matcher, rel) && (!fileFilter || matchName(fileFilter, rel))) {
          total++;
          if (results.length < limit) results.push(rel);
        }
        continue;
      }
      if (fileFilter && !matchName(fileFilter, rel)) continue;
      const bytes = readForSearch(tree, file);
      if (!bytes || looksBinary(bytes)) continue;
      const lines = new TextDecoder().decode(bytes).split("\n");
      for (let i = 0; i < lines.length; i++) {
        if (!matcher.test(lines[i])) continue;
        total++;
        if (results.length < limit) {
          const line = lines[i].replace(/\r$/, "");
          results.push(`${rel}:${i + 1}: ${line.length > 300 ? line.slice(0, 300) + " …" : line}`);
        }
      }
    }
    if (total === 0) {
      return {
        output: target === "content"
          ? `No matches for /${args.pattern}/ in ${args.path ?? "."}.`
          : `No files matching "${args.pattern}" in ${args.path ?? "."}.`,
      };
    }
    const notes: string[] = [];
    if (total > results.length) {
      notes.push(
        `(${total} ${target === "content" ? "matches" : "files"}, showing the first ` +
          `${results.length}; narrow the search or raise limit)`,
      );
    }
    if (truncatedScan) {
      notes.push(
        `(stopped after scanning ${FILE_LIMITS.maxSearchFilesScanned} files; use path ` +
          `to search a subdirectory)`,
      );
    }
    return { output: [...results, ...notes].join("\n") };
  });
}

interface WalkedFile {
  /** Real path relative to the root, `/`-separated. */
  rel: string;
  /** A symlink (to a file inside): opened following links beneath the root. */
  follow: boolean;
}

/** The bytes of a regular file found by the walk, or null (gone, too big, not a file). */
function readForSearch(tree: Tree, file: WalkedFile): Uint8Array | null {
  let fd = -1;
  try {
    fd = tree.open(file.rel, O.RDONLY | O.NONBLOCK, { noSymlinks: !file.follow }).fd;
    const st = statFd(fd);
    if (st.type !== "file" || st.size > FILE_LIMITS.maxSearchFileBytes) return null;
    const bytes = readFd(fd, FILE_LIMITS.maxSearchFileBytes);
    return bytes.length > FILE_LIMITS.maxSearchFileBytes ? null : bytes;
  } catch {
    return null;
  } finally {
    if (fd !== -1) tree.release(fd);
  }
}

/**
 * Walk files under `dirRel` in name order, skipping SKIPPED_DIRS, protected paths and links to
 * directories. Directories are opened with no symlink anywhere on the path, so one swapped for
 * a link mid-walk is skipped, never followed. One directory fd is open at a time.
 */
function* walk(tree: Tree, dirRel: string, admit: () => boolean): Generator<WalkedFile> {
  let entries: ReturnType<typeof readDirFd>;
  let dirReal: string;
  try {
    const dir = tree.open(dirRel, O.RDONLY | O.DIRECTORY, { noSymlinks: true });
    try {
      dirReal = dir.real;
      entries = readDirFd(dir.fd);
      // d_type is unknown on some filesystems: ask lstat then.
      for (const e of entries) {
        if (e.type !== "unknown") continue;
        try {
          const st = lstatAt(dir.fd, e.name);
          e.type = st.type;
        } catch { /* vanished */ }
      }
    } finally {
      tree.release(dir.fd);
    }
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const abs = join(dirReal, e.name);
    if (!tree.allowed(abs)) continue;
    const rel = tree.rel(abs);
    if (e.type === "dir") {
      if (SKIPPED_DIRS.has(e.name)) continue;
      yield* walk(tree, rel, admit);
    } else if (e.type === "file") {
      if (!admit()) return;
      yield { rel, follow: false };
    } else if (e.type === "symlink") {
      // Symlinked files are searched only when they resolve inside; linked dirs are not walked.
      let isFile = false;
      try {
        const t = tree.open(rel, O.PATH);
        isFile = statFd(t.fd).type === "file";
        tree.release(t.fd);
      } catch { /* leads outside, protected or dangling */ }
      if (isFile) {
        if (!admit()) return;
        yield { rel, follow: true };
      }
    }
  }
}
