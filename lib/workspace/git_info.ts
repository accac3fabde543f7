// The workspace's git state for the panel header: branch, dirty, counts, ahead/behind.
// Invariants: git runs read-only (`--no-optional-locks`, never taking index.lock from a user's
// own git), with a timeout, no terminal prompts and no fsmonitor hook (a hostile repo config
// must not get code run by merely opening the panel); any failure means "no git info" (null).

export interface GitInfo {
  /** Branch name; `(detached abc1234)` on a detached HEAD. */
  branch: string;
  dirty: boolean;
  /** Tracked files with changes (staged or not, including conflicts). */
  modified: number;
  untracked: number;
  ahead: number;
  behind: number;
}

export interface GitInfoOptions {
  /** Kill git after this long (default 5 s); a slow repo yields null, not a hung request. */
  timeoutMs?: number;
  /** The git executable (default "git" on PATH). */
  git?: string;
}

/** Parse `git status --porcelain=v2 --branch` output. */
export function parseGitStatus(text: string): GitInfo {
  const info: GitInfo = {
    branch: "",
    dirty: false,
    modified: 0,
    untracked: 0,
    ahead: 0,
    behind: 0,
  };
  let oid = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("# branch.head ")) info.branch = line.slice(14).trim();
    else if (line.startsWith("# branch.oid ")) oid = line.slice(13).trim();
    else if (line.startsWith("# branch.ab ")) {
      const m = line.match(/\+(\d+) -(\d+)/);
      if (m) {
        info.ahead = Number(m[1]);
        info.behind = Number(m[2]);
      }
    } else if (/^[12u] /.test(line)) info.modified++;
    else if (line.startsWith("? ")) info.untracked++;
  }
  if (info.branch === "(detached)" || info.branch === "") {
    info.branch = oid && oid !== "(initial)" ? `(detached ${oid.slice(0, 7)})` : info.branch;
  }
  info.dirty = info.modified + info.untracked > 0;
  return info;
}

/** The git state of `workspace`, or null when it is not in a repo or git is unavailable. */
export async function gitInfo(
  workspace: string,
  opts: GitInfoOptions = {},
): Promise<GitInfo | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 5000);
  try {
    const out = await new Deno.Command(opts.git ?? "git", {
      args: [
        "-C",
        workspace,
        "--no-optional-locks",
        "-c",
        "core.fsmonitor=false",
        "-c",
        "core.untrackedCache=false",
        "status",
        "--porcelain=v2",
        "--branch",
        "--untracked-files=normal",
      ],
      env: { GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: controller.signal,
    }).output();
    if (!out.success) return null;
    return parseGitStatus(new TextDecoder().decode(out.stdout));
  } catch {
    return null; // git missing, killed by the timeout, or the workspace vanished
  } finally {
    clearTimeout(timer);
  }
}
