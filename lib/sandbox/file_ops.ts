// The file operations behind the agent's file tools, run inside the sandbox Worker (whose
// Deno permissions are read/write of one workspace, nothing else). Invariant: every path is
// resolved with resolveInWorkspace (real path) before it is touched, so neither `..` nor a
// symlink inside the workspace reaches outside it; failures return `{isError}` text, never throw.
import { resolveInWorkspace, toWorkspaceRelative } from "../workspace/workspace_paths.ts";
import { dirname, join, relative, sep } from "node:path";

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

/** Resolve or explain: a refused path becomes the same message whatever lies outside. */
async function resolvePath(
  root: string,
  path: string,
  mustExist: boolean,
): Promise<string | FileOpResult> {
  try {
    return await resolveInWorkspace(root, normalizeToolPath(path), { mustExist });
  } catch {
    return fail(
      mustExist
        ? `Path "${path}" was not found in the workspace (paths are relative to the workspace ` +
          `root; absolute paths, ".." and links leading outside are refused).`
        : `Path "${path}" is outside the workspace or not writable (paths are relative to the ` +
          `workspace root; absolute paths, ".." and links leading outside are refused).`,
    );
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
export async function readFileOp(
  root: string,
  args: { path: string; offset?: number; limit?: number },
): Promise<FileOpResult> {
  const abs = await resolvePath(root, args.path, true);
  if (typeof abs !== "string") return abs;
  const info = await Deno.stat(abs);
  if (info.isDirectory) return fail(`"${args.path}" is a directory; use list_directory.`);
  if (info.size > FILE_LIMITS.maxReadFileBytes) {
    return fail(
      `"${args.path}" is ${formatBytes(info.size)}; read_file reads files up to ` +
        `${formatBytes(FILE_LIMITS.maxReadFileBytes)}. Use search_files to find the part you ` +
        `need, or terminal (head, sed -n 'A,Bp') to read a slice.`,
    );
  }
  const bytes = await Deno.readFile(abs);
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

/** write_file: create or overwrite a file with `content`, creating parent directories. */
export async function writeFileOp(
  root: string,
  args: { path: string; content: string },
): Promise<FileOpResult> {
  const bytes = new TextEncoder().encode(args.content);
  if (bytes.length > FILE_LIMITS.maxWriteBytes) {
    return fail(
      `Content is ${formatBytes(bytes.length)}; write_file writes up to ` +
        `${formatBytes(FILE_LIMITS.maxWriteBytes)}.`,
    );
  }
  const abs = await resolvePath(root, args.path, false);
  if (typeof abs !== "string") return abs;
  if (abs === root) return fail(`"${args.path}" is the workspace root, not a file.`);
  let existed = false;
  try {
    const info = await Deno.stat(abs);
    if (info.isDirectory) return fail(`"${args.path}" is a directory; cannot write it as a file.`);
    existed = true;
  } catch { /* new file */ }
  try {
    await Deno.mkdir(dirname(abs), { recursive: true });
    await Deno.writeFile(abs, bytes);
  } catch (err) {
    return fail(`Cannot write "${args.path}": ${(err as Error).message}`);
  }
  const lines = args.content === "" ? 0 : args.content.split("\n").length;
  const rel = await toWorkspaceRelative(root, abs);
  return {
    output: `${existed ? "Overwrote" : "Created"} ${rel} (${bytes.length} bytes, ${lines} lines).`,
  };
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
export async function patchOp(
  root: string,
  args: { path: string; old_string: string; new_string: string; replace_all?: boolean },
): Promise<FileOpResult> {
  if (args.old_string === "") {
    return fail("old_string is empty; give the exact text to replace (use write_file to create).");
  }
  if (args.old_string === args.new_string) {
    return fail("old_string and new_string are identical; nothing to change.");
  }
  const abs = await resolvePath(root, args.path, true);
  if (typeof abs !== "string") return abs;
  const info = await Deno.stat(abs);
  if (info.isDirectory) return fail(`"${args.path}" is a directory.`);
  if (info.size > FILE_LIMITS.maxReadFileBytes) {
    return fail(
      `"${args.path}" is ${formatBytes(info.size)}; patch edits files up to ` +
        `${formatBytes(FILE_LIMITS.maxReadFileBytes)}.`,
    );
  }
  const text = await Deno.readTextFile(abs);
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
  await Deno.writeTextFile(abs, updated);
  const rel = await toWorkspaceRelative(root, abs);
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

/** list_directory: the entries of a workspace directory, directories first. */
export async function listDirectoryOp(
  root: string,
  args: { path?: string },
): Promise<FileOpResult> {
  const path = args.path ?? ".";
  const abs = await resolvePath(root, path, true);
  if (typeof abs !== "string") return abs;
  const info = await Deno.stat(abs);
  if (!info.isDirectory) return fail(`"${path}" is a file, not a directory; use read_file.`);
  const entries: ListedEntry[] = [];
  for await (const e of Deno.readDir(abs)) {
    let size = 0;
    let type: ListedEntry["type"] = e.isDirectory ? "dir" : e.isSymlink ? "symlink" : "file";
    try {
      const st = await Deno.lstat(join(abs, e.name));
      size = st.size;
      if (e.isSymlink) {
        // Say what the link is only when it stays inside; never describe outside targets.
        const real = await Deno.realPath(join(abs, e.name)).catch(() => "");
        if (real && (real === root || real.startsWith(root + sep))) {
          const target = await Deno.stat(real);
          type = target.isDirectory ? "dir" : "file";
          size = target.size;
        }
      }
    } catch { /* vanished or unreadable: list with size 0 */ }
    entries.push({ name: e.name, type, size });
  }
  const rank = (t: ListedEntry["type"]) => (t === "dir" ? 0 : 1);
  entries.sort((a, b) =>
    rank(a.type) - rank(b.type) ||
    a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.name.localeCompare(b.name)
  );
  const rel = await toWorkspaceRelative(root, abs);
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
export async function searchFilesOp(
  root: string,
  args: {
    pattern: string;
    target?: "content" | "files";
    path?: string;
    file_glob?: string;
    limit?: number;
    case_insensitive?: boolean;
  },
): Promise<FileOpResult> {
  const target = args.target ?? "content";
  const limit = Math.min(
    FILE_LIMITS.maxSearchResults,
    Math.max(1, args.limit ?? FILE_LIMITS.defaultSearchResults),
  );
  const base = await resolvePath(root, args.path ?? ".", true);
  if (typeof base !== "string") return base;
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
  const baseInfo = await Deno.stat(base);
  const files: AsyncGenerator<string> = baseInfo.isDirectory
    ? walk(root, base, () => {
      scanned++;
      if (scanned > FILE_LIMITS.maxSearchFilesScanned) {
        truncatedScan = true;
        return false;
      }
      return true;
    })
    : (async function* () {
      yield base;
    })();
  for await (const abs of files) {
    const rel = relative(root, abs).split(sep).join("/");
    if (target === "files") {
      if (matchName(matcher, rel) && (!fileFilter || matchName(fileFilter, rel))) {
        total++;
        if (results.length < limit) results.push(rel);
      }
      continue;
    }
    if (fileFilter && !matchName(fileFilter, rel)) continue;
    let bytes: Uint8Array;
    try {
      const st = await Deno.stat(abs);
      if (st.size > FILE_LIMITS.maxSearchFileBytes) continue;
      bytes = await Deno.readFile(abs);
    } catch {
      continue;
    }
    if (looksBinary(bytes)) continue;
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
}

/** Walk files under `dir` in name order, skipping SKIPPED_DIRS and links leading outside. */
async function* walk(
  root: string,
  dir: string,
  admit: () => boolean,
): AsyncGenerator<string> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const e of Deno.readDir(dir)) entries.push(e);
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const abs = join(dir, e.name);
    if (e.isDirectory) {
      if (SKIPPED_DIRS.has(e.name)) continue;
      yield* walk(root, abs, admit);
    } else if (e.isFile) {
      if (!admit()) return;
      yield abs;
    } else if (e.isSymlink) {
      // Symlinked files are searched only when they resolve inside; linked dirs are not walked.
      const real = await Deno.realPath(abs).catch(() => "");
      if (!real || !real.startsWith(root + sep)) continue;
      const st = await Deno.stat(real).catch(() => null);
      if (st?.isFile) {
        if (!admit()) return;
        yield abs;
      }
    }
  }
}
