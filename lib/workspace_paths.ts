// The one workspace guard: every path that reaches the workspace (file routes, file tools,
// uploads) is resolved here. Invariants: the result is an absolute real path inside the
// real workspace root; anything else — NUL bytes, absolute paths, `..` escapes in any
// encoding, Windows separators or drive letters, symlinks that point outside — is refused
// with a NotFoundError that says nothing about what exists outside.
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { NotFoundError } from "./errors.ts";

/** Reject request paths that are hostile before touching the filesystem. */
export function checkRelativePath(requested: string): string {
  if (typeof requested !== "string") throw new NotFoundError();
  if (requested.length > 4096) throw new NotFoundError();
  if (requested.includes("\0")) throw new NotFoundError();
  // Backslashes and drive letters are Windows path syntax; never valid in a workspace path.
  if (requested.includes("\\") || /^[a-zA-Z]:/.test(requested)) throw new NotFoundError();
  // Percent-encoded forms are refused rather than decoded twice: query strings are decoded once.
  if (/%2e|%2f|%5c|%00|%25/i.test(requested)) throw new NotFoundError();
  if (isAbsolute(requested)) throw new NotFoundError();
  const parts = requested.split("/");
  if (parts.some((p) => p === "..")) throw new NotFoundError();
  return requested === "" ? "." : requested;
}

function isInside(root: string, target: string): boolean {
  if (target === root) return true;
  const rel = relative(root, target);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) && !rel.split(sep).includes("..");
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
  // Not there yet: walk up to the nearest existing ancestor and check it.
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
    }
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
