// The Git panel's selected files: a commit of just those files (their working-tree content,
// whatever else is staged stays staged), and their diff for a commit message.
// Invariants: a selection is validated as a whole before anything runs (a hostile or outside
// path is a 400 with code path_outside_workspace, a path with nothing to commit a 400, a
// conflicted one a 409); every git call goes through git_panel.ts `git` (runGit: sandboxed,
// hardened, no hooks, no signing); mutations run under the workspace's lock.
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import {
  checkPaths,
  commitMessageOf,
  git,
  type GitTarget,
  hasHead,
  identityArgs,
  locked,
  must,
  type PanelStatus,
  panelStatus,
  requireRepo,
  STATUS_PAGE_MAX,
} from "./git_panel.ts";
import type { GitFile } from "./git_info.ts";

/** The selected files as the status shows them, and the pathspecs a commit of them takes. */
export interface Selection {
  /** Workspace-relative paths, as requested (deduplicated). */
  paths: string[];
  files: GitFile[];
  /** `paths` plus the old name of each rename (both sides of it go in the commit). */
  specs: string[];
  branch: string;
}

/** Validate a selection: every path inside the workspace, visible, and changed. */
export async function selectFiles(t: GitTarget, paths: unknown): Promise<Selection> {
  let specs: string[];
  try {
    specs = await checkPaths(t, paths);
  } catch (err) {
    // A hostile, outside or protected path: the original's structured 400 (never which one).
    if (!(err instanceof NotFoundError)) throw err;
    throw new ValidationError("A selected path is outside the workspace", "paths", {
      code: "path_outside_workspace",
    });
  }
  await requireRepo(t);
  const status = await panelStatus(t, { limit: STATUS_PAGE_MAX });
  const byPath = new Map((status.is_git ? status.files : []).map((f) => [f.path, f]));
  const files: GitFile[] = [];
  const missing: string[] = [];
  for (const spec of specs) {
    const f = byPath.get(spec);
    if (!f || !(f.staged || f.unstaged || f.untracked || f.conflict)) missing.push(spec);
    else if (f.conflict) {
      throw new ConflictError(`Resolve the conflict in "${spec}" before committing it`, {
        code: "conflict",
      });
    } else files.push(f);
  }
  if (missing.length) {
    throw new ValidationError(
      `Selected paths have no committable changes: ${missing.map((p) => `"${p}"`).join(", ")}`,
      "paths",
      { code: "no_changes" },
    );
  }
  const all = [...specs];
  for (const f of files) if (f.old_path && !all.includes(f.old_path)) all.push(f.old_path);
  return { paths: specs, files, specs: all, branch: status.is_git ? status.branch : "HEAD" };
}

/** The id of the empty tree in this repo's hash (what a first commit is diffed against). */
async function emptyTree(t: GitTarget): Promise<string> {
  const r = must(await git(t, ["hash-object", "-t", "tree", "--stdin"]), "hash the empty tree");
  return r.stdout.trim();
}

/**
 * The diff a commit of the selection would make (working tree against HEAD; new files against
 * nothing), cut at `limit` bytes.
 */
export async function selectionDiff(
  t: GitTarget,
  sel: Selection,
  limit: number,
): Promise<{ diff: string; truncated: boolean }> {
  const base = ["diff", "--no-ext-diff", "--no-textconv", "--no-color", "--unified=3"];
  const untracked = sel.files.filter((f) => f.untracked).map((f) => f.path);
  const tracked = sel.specs.filter((p) => !untracked.includes(p));
  let diff = "";
  if (tracked.length) {
    const from = await hasHead(t) ? "HEAD" : await emptyTree(t);
    const r = await git(t, [...base, from, "--", ...tracked], false, limit + 1);
    if (!r.ok && !r.truncated) must(r, "diff the selected files");
    diff += r.stdout;
  }
  for (const path of untracked) {
    if (diff.length > limit) break;
    // `--no-index` exits 1 when the files differ, which is the point here.
    const r = await git(t, [...base, "--no-index", "--", "/dev/null", path], false, limit + 1);
    if (!r.ok && !r.truncated && r.code !== 1) must(r, `diff "${path}"`);
    diff += r.stdout;
  }
  const bytes = new TextEncoder().encode(diff);
  if (bytes.length <= limit) return { diff, truncated: false };
  return {
    diff: new TextDecoder().decode(bytes.subarray(0, limit)).replace(/\uFFFD$/, ""),
    truncated: true,
  };
}

/**
 * Commit the selected files only, as they are in the working tree: `git commit --only` takes
 * their content and leaves everything else staged as it was. New files are added first (a
 * partial commit names only files git knows) and dropped from the index again if it fails.
 */
export function commitSelected(
  t: GitTarget,
  message: unknown,
  paths: unknown,
): Promise<{ ok: true; commit: string; paths: string[]; status: PanelStatus }> {
  return locked(t, async () => {
    const text = commitMessageOf(message);
    const sel = await selectFiles(t, paths);
    if ((await git(t, ["rev-parse", "-q", "--verify", "MERGE_HEAD"])).ok) {
      throw new ConflictError("A merge is in progress: commit all of it, not selected files", {
        code: "conflict",
      });
    }
    const fresh = sel.files.filter((f) => f.untracked).map((f) => f.path);
    if (fresh.length) must(await git(t, ["add", "--", ...fresh], true), "add the new files");
    const done = await git(t, [
      ...await identityArgs(t),
      "-c",
      "commit.gpgSign=false",
      "commit",
      "--no-verify",
      "--cleanup=strip",
      "-q",
      "--only",
      "-m",
      text,
      "--",
      ...sel.specs,
    ], true);
    if (!done.ok && fresh.length) await git(t, ["rm", "--cached", "-q", "--", ...fresh], true);
    must(done, "commit the selected files");
    const head = must(await git(t, ["rev-parse", "HEAD"]), "read the new commit");
    return { ok: true, commit: head.stdout.trim(), paths: sel.paths, status: await panelStatus(t) };
  });
}
