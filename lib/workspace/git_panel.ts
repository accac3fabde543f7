// The Git panel's operations on a session's workspace (routes/api/git/*): paged status, per-file
// diffs, stage/unstage per file and per hunk, discard, commit and log (branches and checkout:
// git_branches.ts; selected files: git_selected.ts; fetch/pull/push: git_remote.ts).
// Invariants: every git call goes through runGit (sandboxed, hardened: no hooks, filters, pager,
// fsmonitor or external diff; bounded); paths are workspace-relative, pass the workspace guard and
// reach git as literal pathspecs after `--`; mutations of one workspace run one at a time.
import { AsyncMutex } from "../async_mutex.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { type GitResult, type GitRunOptions, runGit } from "./git_command.ts";
import { type GitFile, type GitStatus, type GitTotals, parseGitStatus } from "./git_info.ts";
import { diffStats, hunkPatch, parseFileDiff } from "./git_patch.ts";
import { checkRelativePath, resolveInWorkspace } from "./workspace_paths.ts";
import { isProtectedPath } from "./protected_paths.ts";
import { join } from "node:path";

/** Where and how git runs: the workspace real path and runGit's sandbox options. */
export interface GitTarget {
  workspace: string;
  run: Omit<GitRunOptions, "cwd" | "workspace" | "writable" | "timeoutMs">;
  /** Protected absolute paths (protected_paths.ts): never listed, never a pathspec. */
  protect?: readonly string[];
  /** The user's credentials for fetch/pull/push (lib/workspace/git_remote.ts). */
  credentials?: { home: string; sshAuthSock?: string };
}

export const STATUS_PAGE_DEFAULT = 500;
export const STATUS_PAGE_MAX = 2000;
/** A diff past this many bytes is cut and marked too_large (the viewer stays responsive). */
export const DIFF_SIZE_LIMIT = 512 * 1024;
export const MAX_PATHS = 1000;
const WRITE_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;

const locks = new Map<string, AsyncMutex>();

export async function locked<T>(t: GitTarget, fn: () => Promise<T>): Promise<T> {
  let m = locks.get(t.workspace);
  if (!m) locks.set(t.workspace, m = new AsyncMutex(`git ${t.workspace}`));
  const release = await m.acquire();
  try {
    return await fn();
  } finally {
    release();
    if (!m.locked && m.waiting === 0) locks.delete(t.workspace);
  }
}

/** Run git in the workspace; `write` binds it read-write in the sandbox. */
export function git(
  t: GitTarget,
  args: string[],
  write = false,
  maxBytes?: number,
  inputFile?: string,
): Promise<GitResult> {
  return runGit(["--literal-pathspecs", ...args], {
    ...t.run,
    cwd: t.workspace,
    workspace: t.workspace,
    writable: write,
    timeoutMs: write ? WRITE_TIMEOUT_MS : READ_TIMEOUT_MS,
    ...(maxBytes ? { maxBytes } : {}),
    ...(inputFile ? { inputFile } : {}),
  });
}

/** What git said, as one short line for an error message. */
export function gitMessage(r: GitResult): string {
  if (r.timedOut) return "git timed out";
  const text = (r.stderr || r.stdout).trim().split("\n").filter((l) => !l.startsWith("hint:"));
  return (text.join(" ").slice(0, 400) || `git exited with ${r.code}`);
}

/** `r`, or a 409 saying what could not be done and git's own words. */
export function must(r: GitResult, what: string): GitResult {
  if (!r.ok) throw new ConflictError(`Could not ${what}: ${gitMessage(r)}`);
  return r;
}

/** The repo-relative prefix of the workspace, or null outside a repo. */
async function repoPrefix(t: GitTarget): Promise<string | null> {
  const r = await git(t, ["rev-parse", "--show-prefix"]);
  return r.ok ? r.stdout.trim() : null;
}

export async function requireRepo(t: GitTarget): Promise<string> {
  const prefix = await repoPrefix(t);
  if (prefix === null) throw new ConflictError("The workspace is not a git repository");
  return prefix;
}

/** Validate request paths (the workspace guard) and return them as git pathspecs. */
export async function checkPaths(t: GitTarget, paths: unknown): Promise<string[]> {
  if (!Array.isArray(paths) || paths.length === 0) {
    throw new ValidationError('Invalid field "paths": give at least one path', "paths");
  }
  if (paths.length > MAX_PATHS) {
    throw new ValidationError(`Invalid field "paths": at most ${MAX_PATHS} paths`, "paths");
  }
  const out: string[] = [];
  for (const p of paths) {
    if (typeof p !== "string" || p === "") throw new NotFoundError();
    const rel = checkRelativePath(p).replace(/\/+$/, "");
    if (rel === "." || rel === "") throw new ValidationError("Name a file, not the workspace");
    const real = await resolveInWorkspace(t.workspace, rel, { mustExist: false });
    if (isHidden(t, real) || isHidden(t, join(t.workspace, rel))) throw new NotFoundError();
    if (!out.includes(rel)) out.push(rel);
  }
  return out;
}

function totalsOf(files: GitFile[]): GitTotals {
  return {
    changed: files.length,
    staged: files.filter((f) => f.staged).length,
    unstaged: files.filter((f) => f.unstaged).length,
    untracked: files.filter((f) => f.untracked).length,
    conflicts: files.filter((f) => f.conflict).length,
  };
}

export const isHidden = (t: GitTarget, abs: string) =>
  !!t.protect && isProtectedPath(abs, t.protect);

export type PanelStatus =
  | { is_git: false }
  | (Extract<GitStatus, { is_git: true }> & { offset: number; limit: number; total: number });

/** Status with every changed file (untracked ones listed one by one), one page of them. */
export async function panelStatus(
  t: GitTarget,
  page: { offset?: number; limit?: number } = {},
): Promise<PanelStatus> {
  const prefix = await repoPrefix(t);
  if (prefix === null) return { is_git: false };
  const r = await git(
    t,
    [
      "status",
      "--porcelain=v2",
      "-z",
      "--branch",
      "--untracked-files=all",
      "--ignore-submodules=all",
      "--",
      ".",
    ],
    false,
    64 * 1024 * 1024,
  );
  if (!r.ok) throw new ConflictError(`Could not read the git status: ${gitMessage(r)}`);
  const parsed = parseGitStatus(r.stdout, prefix, Infinity);
  if (!parsed.is_git) return parsed;
  const visible = parsed.files.filter((f) => !isHidden(t, join(t.workspace, f.path)));
  const all = visible.length === parsed.files.length
    ? parsed
    : { ...parsed, files: visible, totals: totalsOf(visible) };
  const offset = Math.max(0, Math.floor(page.offset ?? 0));
  const limit = Math.min(
    STATUS_PAGE_MAX,
    Math.max(1, Math.floor(page.limit ?? STATUS_PAGE_DEFAULT)),
  );
  return {
    ...all,
    files: all.files.slice(offset, offset + limit),
    truncated: offset + limit < all.files.length,
    offset,
    limit,
    total: all.files.length,
  };
}

export interface FileDiff {
  path: string;
  kind: "staged" | "unstaged" | "untracked";
  binary: boolean;
  too_large: boolean;
  additions: number;
  deletions: number;
  diff: string;
  hunks: Array<{ index: number; header: string; lines: string[] }>;
}

export async function isUntracked(t: GitTarget, path: string): Promise<boolean> {
  const r = await git(t, ["ls-files", "-z", "--others", "--exclude-standard", "--", path]);
  return r.ok && r.stdout.split("\0").includes(path);
}

/** The diff of one file: staged (index vs HEAD) or unstaged (worktree vs index; untracked: all new). */
export async function fileDiff(
  t: GitTarget,
  path: string,
  kind: "staged" | "unstaged",
): Promise<FileDiff> {
  await requireRepo(t);
  const [spec] = await checkPaths(t, [path]);
  const untracked = kind === "unstaged" && await isUntracked(t, spec);
  const base = ["diff", "--no-ext-diff", "--no-textconv", "--no-color", "--unified=3"];
  const r = untracked
    ? await git(t, [...base, "--no-index", "--", "/dev/null", spec], false, DIFF_SIZE_LIMIT * 4)
    : await git(
      t,
      [...base, ...(kind === "staged" ? ["--cached"] : []), "--", spec],
      false,
      DIFF_SIZE_LIMIT * 4,
    );
  // `--no-index` exits 1 when the files differ; a cut output is reported as too large.
  if (!r.ok && !r.truncated && !(untracked && r.code === 1)) {
    throw new ConflictError(`Could not diff "${spec}": ${gitMessage(r)}`);
  }
  let text = r.stdout;
  const tooLarge = r.truncated || text.length > DIFF_SIZE_LIMIT;
  if (tooLarge) text = text.slice(0, DIFF_SIZE_LIMIT);
  const parsed = parseFileDiff(text);
  return {
    path: spec,
    kind: untracked ? "untracked" : kind,
    binary: parsed.binary,
    too_large: tooLarge,
    ...diffStats(text),
    diff: parsed.binary ? "" : text,
    hunks: tooLarge || parsed.binary
      ? []
      : parsed.hunks.map((h) => ({ index: h.index, header: h.header, lines: h.lines })),
  };
}

export async function hasHead(t: GitTarget): Promise<boolean> {
  return (await git(t, ["rev-parse", "--verify", "-q", "HEAD"])).ok;
}

export function stagePaths(t: GitTarget, paths: unknown): Promise<PanelStatus> {
  return locked(t, async () => {
    await requireRepo(t);
    const specs = await checkPaths(t, paths);
    must(await git(t, ["add", "-A", "--", ...specs], true), "stage");
    return await panelStatus(t);
  });
}

export function unstagePaths(t: GitTarget, paths: unknown): Promise<PanelStatus> {
  return locked(t, async () => {
    await requireRepo(t);
    const specs = await checkPaths(t, paths);
    // Before the first commit there is no HEAD to restore from: drop the entries instead.
    const args = await hasHead(t)
      ? ["restore", "--staged", "--", ...specs]
      : ["rm", "--cached", "-r", "-q", "--", ...specs];
    must(await git(t, args, true), "unstage");
    return await panelStatus(t);
  });
}

/**
 * Throw away working-tree changes. Tracked files go back to their staged (else committed)
 * content; untracked ones are deleted only with `deleteUntracked`. Conflicted files are refused.
 */
export function discardPaths(
  t: GitTarget,
  paths: unknown,
  deleteUntracked: boolean,
): Promise<PanelStatus> {
  return locked(t, async () => {
    await requireRepo(t);
    const specs = await checkPaths(t, paths);
    const status = await panelStatus(t, { limit: STATUS_PAGE_MAX });
    const files = status.is_git ? status.files : [];
    const byPath = new Map(files.map((f) => [f.path, f]));
    const tracked: string[] = [];
    const untracked: string[] = [];
    for (const spec of specs) {
      const f = byPath.get(spec) ??
        (await isUntracked(t, spec) ? { untracked: true, conflict: false } : null);
      if (f?.conflict) {
        throw new ConflictError(
          `"${spec}" has a merge conflict; resolve it (or abort the merge) first`,
        );
      }
      if (f?.untracked) untracked.push(spec);
      else tracked.push(spec);
    }
    if (untracked.length && !deleteUntracked) {
      throw new ValidationError(
        `${untracked.map((p) => `"${p}"`).join(", ")} ${untracked.length === 1 ? "is" : "are"} ` +
          "untracked: discarding deletes it; send delete_untracked: true to confirm",
        "delete_untracked",
      );
    }
    if (tracked.length) {
      must(await git(t, ["restore", "--worktree", "--", ...tracked], true), "discard");
    }
    if (untracked.length) {
      must(await git(t, ["clean", "-f", "-q", "--", ...untracked], true), "delete");
    }
    return await panelStatus(t);
  });
}

/** A private temp file for git to read (runGit's `inputFile` shows it to the sandbox). */
async function withPatchFile<T>(patch: string, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "hermes-hunk-" });
  const file = `${dir}/hunk.patch`;
  try {
    await Deno.writeTextFile(file, patch, { mode: 0o600 });
    return await fn(file);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * Stage (or unstage) one hunk of a file: the hunk of its unstaged (staged) diff, named by index
 * and `@@` header, is applied to the index alone with `git apply --cached` (reversed to unstage).
 */
export function applyHunk(
  t: GitTarget,
  req: { path: string; hunk: number; header?: string; action: "stage" | "unstage" },
): Promise<PanelStatus> {
  return locked(t, async () => {
    const diff = await fileDiff(t, req.path, req.action === "stage" ? "unstaged" : "staged");
    if (diff.kind === "untracked") {
      throw new ValidationError(`"${diff.path}" is untracked: stage the whole file`);
    }
    if (diff.binary || diff.too_large) {
      throw new ValidationError(
        `"${diff.path}" has no hunks to stage one by one (binary or too large)`,
      );
    }
    const patch = hunkPatch(parseFileDiff(diff.diff), req.hunk, req.header);
    if (patch === null) {
      throw new ConflictError(
        `Hunk ${req.hunk} of "${diff.path}" is not there any more (the file changed); reload the diff`,
      );
    }
    const args = [
      "apply",
      "--cached",
      "--whitespace=nowarn",
      ...(req.action === "unstage" ? ["--reverse"] : []),
    ];
    await withPatchFile(patch, async (file) => {
      must(await git(t, [...args, "--", file], true, undefined, file), `${req.action} the hunk`);
    });
    return await panelStatus(t);
  });
}

/** The fallback identity when the repo names none (the server's own git config is never read). */
export const FALLBACK_IDENTITY = { name: "Hermes Console", email: "hermes-console@localhost" };

/** `-c user.name/email` for what the repo leaves unset (commits and stashes need both). */
export async function identityArgs(t: GitTarget): Promise<string[]> {
  const identity: string[] = [];
  const name = await git(t, ["config", "--get", "user.name"]);
  const email = await git(t, ["config", "--get", "user.email"]);
  if (!name.ok || !name.stdout.trim()) identity.push("-c", `user.name=${FALLBACK_IDENTITY.name}`);
  if (!email.ok || !email.stdout.trim()) {
    identity.push("-c", `user.email=${FALLBACK_IDENTITY.email}`);
  }
  return identity;
}

/** A commit message from a request body: some text, at most 20,000 characters, no NUL. */
export function commitMessageOf(message: unknown): string {
  if (typeof message !== "string" || message.trim() === "") {
    throw new ValidationError('Invalid field "message": write a commit message', "message");
  }
  if (message.length > 20_000 || message.includes("\0")) {
    throw new ValidationError(
      'Invalid field "message": at most 20,000 characters, no NUL',
      "message",
    );
  }
  return message;
}

/** Commit what is staged. Hooks never run (core.hooksPath=/dev/null and --no-verify), no signing. */
export function commit(
  t: GitTarget,
  message: unknown,
): Promise<{ ok: true; commit: string; status: PanelStatus }> {
  return locked(t, async () => {
    const text = commitMessageOf(message);
    await requireRepo(t);
    const staged = await git(t, ["diff", "--cached", "--quiet", "--no-ext-diff"]);
    const merging = (await git(t, ["rev-parse", "-q", "--verify", "MERGE_HEAD"])).ok;
    if (staged.ok && !merging && await hasHead(t)) {
      throw new ConflictError("Nothing is staged to commit");
    }
    must(
      await git(t, [
        ...await identityArgs(t),
        "-c",
        "commit.gpgSign=false",
        "commit",
        "--no-verify",
        "--cleanup=strip",
        "-q",
        "-m",
        text,
      ], true),
      "commit",
    );
    const head = must(await git(t, ["rev-parse", "HEAD"]), "read the new commit");
    return { ok: true, commit: head.stdout.trim(), status: await panelStatus(t) };
  });
}

export interface LogEntry {
  hash: string;
  short: string;
  author: string;
  email: string;
  date: string;
  subject: string;
}

/** The last `limit` commits of HEAD (none before the first commit). */
export async function log(t: GitTarget, limit = 30): Promise<{ commits: LogEntry[] }> {
  await requireRepo(t);
  if (!await hasHead(t)) return { commits: [] };
  const n = Math.min(200, Math.max(1, Math.floor(limit)));
  const r = must(
    await git(t, [
      "log",
      `-n${n}`,
      "--no-show-signature",
      "--format=%H%x00%h%x00%an%x00%ae%x00%aI%x00%s%x1e",
    ]),
    "read the log",
  );
  const commits = r.stdout.split("\x1e").map((s) => s.replace(/^\n/, "")).filter(Boolean).map(
    (rec) => {
      const [hash, short, author, email, date, subject] = rec.split("\0");
      return { hash, short, author, email, date, subject };
    },
  );
  return { commits };
}
