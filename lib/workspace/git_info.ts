// The workspace's git state for the panel (GET /api/git-info), in the original's shape: branch,
// upstream, ahead/behind, totals and the changed files (workspace-relative, at most 500).
// Invariants: git runs only through lib/workspace/git_command.ts (sandboxed, hardened, read-only,
// no optional locks, bounded); any failure means "not a repo" ({is_git: false}).
import { type GitRunOptions, runGit } from "./git_command.ts";

/** One changed path, relative to the workspace. */
export interface GitFile {
  path: string;
  old_path: string | null;
  /** "M", "A", "D", "R", "C", "T", "??" or a conflict pair ("UU", "AA", …). */
  status: string;
  staged: boolean;
  unstaged: boolean;
  untracked: boolean;
  conflict: boolean;
}

export interface GitTotals {
  changed: number;
  staged: number;
  unstaged: number;
  untracked: number;
  conflicts: number;
}

export type GitStatus =
  | { is_git: false }
  | {
    is_git: true;
    /** Branch name; the short commit on a detached HEAD ("HEAD" before the first commit). */
    branch: string;
    upstream: string;
    ahead: number;
    behind: number;
    totals: GitTotals;
    files: GitFile[];
    truncated: boolean;
  };

export const STATUS_FILE_LIMIT = 500;

export type GitInfoOptions = Omit<GitRunOptions, "cwd" | "workspace">;

const CONFLICTS = new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);

function statusCode(xy: string, kind: string): string {
  if (kind === "?") return "??";
  if (kind === "u" || CONFLICTS.has(xy)) return xy;
  if (kind === "2") return "R";
  for (const ch of xy) if ("MADRCUT".includes(ch)) return ch;
  return "M";
}

/**
 * Parse `git status --porcelain=v2 -z --branch` run in a directory whose repo-relative prefix
 * is `prefix` ("" at the repo root, else "sub/dir/"); paths outside it are skipped.
 */
export function parseGitStatus(text: string, prefix = "", limit = STATUS_FILE_LIMIT): GitStatus {
  let branch = "";
  let oid = "";
  let upstream = "";
  let ahead = 0;
  let behind = 0;
  const files: GitFile[] = [];
  const rel = (p: string) => (p.startsWith(prefix) ? p.slice(prefix.length) : null);
  const tokens = text.split("\0");
  for (let i = 0; i < tokens.length; i++) {
    const rec = tokens[i];
    if (!rec) continue;
    if (rec.startsWith("# ")) {
      const [, key, value = ""] = rec.match(/^# (\S+) ?(.*)$/) ?? [];
      if (key === "branch.head") branch = value === "(detached)" ? "" : value;
      else if (key === "branch.oid") oid = value;
      else if (key === "branch.upstream") upstream = value;
      else if (key === "branch.ab") {
        const m = value.match(/^\+(\d+) -(\d+)$/);
        if (m) [ahead, behind] = [Number(m[1]), Number(m[2])];
      }
      continue;
    }
    const kind = rec[0];
    let xy = "";
    let path: string;
    let oldPath: string | null = null;
    if (kind === "?") path = rec.slice(2);
    else if (kind === "1") [xy, path] = [rec.split(" ")[1], rec.split(" ").slice(8).join(" ")];
    else if (kind === "2") {
      [xy, path] = [rec.split(" ")[1], rec.split(" ").slice(9).join(" ")];
      oldPath = tokens[++i] ?? null;
    } else if (kind === "u") [xy, path] = [rec.split(" ")[1], rec.split(" ").slice(10).join(" ")];
    else continue; // "!" ignored entries, or anything unknown
    const p = rel(path);
    if (p === null || p === "") continue;
    const conflict = kind === "u" || CONFLICTS.has(xy);
    files.push({
      path: p,
      old_path: oldPath === null ? null : rel(oldPath) ?? oldPath,
      status: statusCode(xy, kind),
      staged: kind !== "?" && !conflict && xy[0] !== ".",
      unstaged: kind !== "?" && !conflict && xy[1] !== ".",
      untracked: kind === "?",
      conflict,
    });
  }
  const totals: GitTotals = {
    changed: files.length,
    staged: 0,
    unstaged: 0,
    untracked: 0,
    conflicts: 0,
  };
  for (const f of files) {
    if (f.staged) totals.staged++;
    if (f.unstaged) totals.unstaged++;
    if (f.untracked) totals.untracked++;
    if (f.conflict) totals.conflicts++;
  }
  files.sort((a, b) => a.path.toLowerCase() < b.path.toLowerCase() ? -1 : 1);
  if (!branch) branch = oid && oid !== "(initial)" ? oid.slice(0, 7) : "HEAD";
  return {
    is_git: true,
    branch,
    upstream,
    ahead,
    behind,
    totals,
    files: files.slice(0, limit),
    truncated: files.length > limit,
  };
}

/** The git state of `workspace` (a real path); {is_git: false} outside a repo or without git. */
export async function gitStatus(workspace: string, opts: GitInfoOptions = {}): Promise<GitStatus> {
  const run = { ...opts, cwd: workspace, workspace };
  const top = await runGit(["rev-parse", "--show-prefix"], run);
  if (!top.ok) return { is_git: false };
  const status = await runGit([
    "status",
    "--porcelain=v2",
    "-z",
    "--branch",
    "--untracked-files=normal",
    "--ignore-submodules=all",
    "--",
    ".",
  ], run);
  if (!status.ok) return { is_git: false };
  return parseGitStatus(status.stdout, top.stdout.trim());
}
