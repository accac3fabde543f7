// The one workspace guard: every path that reaches the workspace (file routes, file tools,
// uploads) is resolved here. Invariants: the result is an absolute real path inside the
// real workspace root; anything else — NUL bytes, absolute paths, `..` escapes in any
// encoding, Windows separators or drive letters, symlinks that point outside — is refused
// with a NotFoundError that says nothing about what exists outside. The POST file routes first
// refuse a path that is hostile on its face with a 400 naming why (refuseHostilePath), as the
// original does; what only a lookup can tell (a symlink out, a missing file) stays a 404.
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { NotFoundError, ValidationError } from "../errors.ts";

/** True when `text` holds a C0 control character or DEL. */
export function hasControlChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** The longest workspace path a request may name. */
const MAX_PATH_CHARS = 4096;

/**
 * Why `requested` is hostile on its face (a sentence for the person), or null when it is an
 * ordinary relative path. Decided from the string alone, before the filesystem is touched; the
 * sentence never repeats the path, so an answer echoes nothing about what lies outside.
 */
export function hostilePathReason(requested: string): string | null {
  if (typeof requested !== "string") return "The path must be a string";
  if (requested.length > MAX_PATH_CHARS) {
    return `The path is longer than ${MAX_PATH_CHARS} characters`;
  }
  // NUL and other control characters: never part of a name a person meant (and a newline in
  // a name forges lines in logs and shell output).
  if (hasControlChar(requested)) return "The path holds a NUL byte or another control character";
  // Backslashes and drive letters are Windows path syntax; never valid in a workspace path.
  if (requested.includes("\\") || /^[a-zA-Z]:/.test(requested)) {
    return "The path uses Windows syntax (a backslash or a drive letter); use / between folders";
  }
  // URLs (`file:///etc/passwd`) are never workspace paths, even if they would stay inside.
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(requested)) {
    return "The path is a URL, not a path inside the workspace";
  }
  // Percent-escapes are refused rather than decoded twice: query strings are decoded once, so
  // `%2e%2e`, `%252e` or overlong `%c0%ae` can only be a double-encoding bug or an attack.
  if (/%[0-9a-fA-F]{2}|%u[0-9a-fA-F]{4}/.test(requested)) {
    return "The path holds a percent-escape (%xx): send the name itself, decoded";
  }
  // Look-alikes of `/` and `\` (division/fraction slash, fullwidth solidus…) spoof paths in
  // what a person reads (approval prompts, listings), and compatibility normalization turns
  // `．．／` into `../` on some systems: refuse both.
  if (/[\u2215\u2044\u29f8\u29f9\uff0f\uff3c\ufe68]/.test(requested)) {
    return "The path holds a look-alike of / or \\";
  }
  const nfkc = requested.normalize("NFKC");
  if (isAbsolute(requested) || isAbsolute(nfkc)) {
    return "The path is absolute: give it relative to the workspace";
  }
  for (const form of [requested, nfkc]) {
    if (form.includes("\\")) return "The path holds a look-alike of / or \\";
    if (form.split("/").some((p) => p === "..")) {
      return "The path leaves the workspace: a `..` segment climbs outside it";
    }
  }
  return null;
}

/** Reject request paths that are hostile before touching the filesystem (404: reveals nothing). */
export function checkRelativePath(requested: string): string {
  if (hostilePathReason(requested) !== null) throw new NotFoundError();
  return requested === "" ? "." : requested;
}

/**
 * The file routes' refusal of a hostile path: a 400 saying what is wrong with it, before any
 * lookup (as the original's POST file routes answer). A well-formed path that does not exist
 * stays the lookup's 404.
 */
export function refuseHostilePath(requested: string, field = "path"): void {
  const reason = hostilePathReason(requested);
  if (reason !== null) throw new ValidationError(reason, field);
}

function isInside(root: string, target: string): boolean {
  if (target === root) return true;
  const rel = relative(root, target);
  // `..foo` is a legal name inside the root; only a whole `..` segment climbs out.
  return rel !== "" && !isAbsolute(rel) && !rel.split(sep).includes("..");
}

/**
 * Resolve `requested` (relative to the workspace) to a real path inside `workspaceRoot`.
 * For a path that does not exist yet (a file about to be written), its nearest existing
 * ancestor is resolved and checked instead, so a symlinked parent cannot redirect the write.
 */
export async function resolveInWorkspace(
  workspaceRoot: string,
  requested: string,
  opts: { mustExist?: boolean } = { mustExist: true },
): Promise<string> {
  const rel = checkRelativePath(requested);
  let root: string;
  try {
    root = await Deno.realPath(workspaceRoot);
  } catch {
    throw new NotFoundError();
  }
  const lexical = resolve(root, rel);
  if (!isInside(root, lexical)) throw new NotFoundError();
  try {
    const real = await Deno.realPath(lexical);
    if (!isInside(root, real)) throw new NotFoundError();
    return real;
  } catch (err) {
    if (err instanceof NotFoundError) throw err;
    if (opts.mustExist !== false || !(err instanceof Deno.errors.NotFound)) {
      throw new NotFoundError();
    }
  }
  // Not there yet: walk up to the nearest existing ancestor and check it. A component that
  // has a directory entry but no real path is a dangling symlink: writing through it would
  // create its target, wherever that is, so it is refused.
  if (await hasEntry(lexical)) throw new NotFoundError();
  const tail: string[] = [];
  let cursor = lexical;
  while (true) {
    const parent = resolve(cursor, "..");
    tail.unshift(cursor.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    cursor = parent;
    try {
      const real = await Deno.realPath(cursor);
      if (!isInside(root, real)) throw new NotFoundError();
      return join(real, ...tail);
    } catch (err) {
      if (err instanceof NotFoundError) throw err;
      if (!(err instanceof Deno.errors.NotFound)) throw new NotFoundError();
      if (cursor === root || cursor === sep) throw new NotFoundError();
      if (await hasEntry(cursor)) throw new NotFoundError();
    }
  }
}

/** Whether anything (a symlink included, dangling or not) is at `path`. */
export async function hasEntry(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The path of `absolute` relative to the workspace root, with forward slashes. */
export async function toWorkspaceRelative(
  workspaceRoot: string,
  absolute: string,
): Promise<string> {
  const root = await Deno.realPath(workspaceRoot);
  const rel = relative(root, absolute).split(sep).join("/");
  return rel === "" ? "." : rel;
}
