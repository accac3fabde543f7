// Where a file write would plant code git runs: a hook, or a repository config (which can name
// hooks, an fsmonitor, filters, aliases…). write_file and patch ask before such a write, judged
// on the path as the kernel resolves it (symlinks, `..`, doubled slashes) and case-insensitively
// (`.GIT` is `.git` on such file systems). Besides `.git` directories, any directory of the
// workspace that is a git directory by its contents (a bare repository such as `evil.git`)
// counts. Invariant: only answers "ask or not"; refusing paths outside the workspace is the file
// sandbox's job (lib/sandbox/file_sandbox.ts).
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Inside a git directory: its hooks, its config and the files that point it elsewhere. */
const GIT_CODE_FILE = /^(.*\/)?(hooks(\/|$)|config(\.worktree)?$|commondir$|gitdir$)/i;
/** A path through a `.git` directory to one of those. */
const DOT_GIT_CODE = /(^|\/)\.git\/(.*\/)?(hooks(\/|$)|config(\.worktree)?$|commondir$|gitdir$)/i;

const exists = (path: string, dir: boolean) =>
  Deno.stat(path).then((s) => dir ? s.isDirectory : s.isFile, () => false);

/** A git directory by its contents: HEAD, objects/ and refs/. */
async function isGitDir(dir: string): Promise<boolean> {
  const [head, objects, refs] = await Promise.all([
    exists(join(dir, "HEAD"), false),
    exists(join(dir, "objects"), true),
    exists(join(dir, "refs"), true),
  ]);
  return head && objects && refs;
}

/** The real path `path` would be written at: its nearest existing ancestor resolved. */
async function realTarget(path: string): Promise<string> {
  const tail: string[] = [];
  for (let cursor = path;; cursor = dirname(cursor)) {
    try {
      return join(await Deno.realPath(cursor), ...tail);
    } catch {
      if (dirname(cursor) === cursor) return path;
      tail.unshift(basename(cursor));
    }
  }
}

/** Whether writing `path` (relative to `workspace`) writes a git hook or a git config. */
export async function writesGitMetadata(workspace: string, path: string): Promise<boolean> {
  const root = await Deno.realPath(workspace).catch(() => resolve(workspace));
  const lexical = resolve(root, path);
  const slashes = (p: string) => p.split(sep).join("/");
  if (DOT_GIT_CODE.test(slashes(relative(root, lexical)))) return true;
  const rel = slashes(relative(root, await realTarget(lexical)));
  if (rel.startsWith("..") || isAbsolute(rel)) return false;
  if (DOT_GIT_CODE.test(rel)) return true;
  const parts = rel.split("/");
  for (let i = parts.length - 1; i >= 0; i--) {
    const inner = parts.slice(i).join("/");
    if (GIT_CODE_FILE.test(inner) && await isGitDir(join(root, ...parts.slice(0, i)))) {
      return true;
    }
  }
  return false;
}
