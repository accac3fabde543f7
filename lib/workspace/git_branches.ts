// The Git panel's branches: the list (local and remote-tracking refs, each an object with its
// commit, date, author, upstream and ahead/behind, in the original's shape), switching (to a
// local branch, a new one, a remote branch tracked locally, or a detached commit) and
// stash-and-switch (local changes parked in a named stash, given back on the way home).
// Invariants: every git call goes through git_panel.ts `git` (runGit: sandboxed, hardened); a
// name or ref is validated before any change, so a bad one stashes nothing; a stash names only
// the changed files the panel shows (never a protected path); mutations run under the lock.
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import {
  git,
  gitMessage,
  type GitTarget,
  identityArgs,
  locked,
  MAX_PATHS,
  must,
  type PanelStatus,
  panelStatus,
  requireRepo,
  STATUS_PAGE_MAX,
} from "./git_panel.ts";

export interface BranchRef {
  name: string;
  sha: string;
  /** Committer date, unix seconds. */
  updated: number;
  updated_relative: string;
  author: string;
  subject: string;
  upstream: string;
  ahead: number;
  behind: number;
  current: boolean;
}

export interface BranchList {
  is_git: true;
  /** The branch checked out (unborn too), else the short commit, else "HEAD". */
  current: string;
  detached: boolean;
  head: string | null;
  local: BranchRef[];
  remote: BranchRef[];
  upstream: string;
  ahead: number;
  behind: number;
}

const REF_FORMAT = [
  "%(refname)",
  "%(refname:short)",
  "%(upstream:short)",
  "%(upstream:track,nobracket)",
  "%(objectname:short)",
  "%(committerdate:unix)",
  "%(committerdate:relative)",
  "%(authorname)",
  "%(HEAD)",
  "%(subject)",
].join("%00");

function trackCounts(track: string): { ahead: number; behind: number } {
  const n = (word: string) => Number(track.match(new RegExp(`${word} (\\d+)`))?.[1] ?? 0);
  return { ahead: n("ahead"), behind: n("behind") };
}

/** Local and remote-tracking branches, by name. */
export async function branches(t: GitTarget): Promise<BranchList> {
  await requireRepo(t);
  const r = must(
    await git(t, ["for-each-ref", `--format=${REF_FORMAT}`, "refs/heads", "refs/remotes"]),
    "list branches",
  );
  const local: BranchRef[] = [];
  const remote: BranchRef[] = [];
  for (const line of r.stdout.split("\n")) {
    if (!line) continue;
    const [ref, name, upstream, track, sha, unix, relative, author, head, subject] = line.split(
      "\0",
    );
    if (ref.endsWith("/HEAD")) continue;
    const item: BranchRef = {
      name,
      sha,
      updated: Number(unix) || 0,
      updated_relative: relative ?? "",
      author: author ?? "",
      subject: subject ?? "",
      upstream: upstream ?? "",
      ...trackCounts(track ?? ""),
      current: head === "*",
    };
    if (ref.startsWith("refs/heads/")) local.push(item);
    else if (name.includes("/")) remote.push(item);
  }
  const byName = (a: BranchRef, b: BranchRef) =>
    a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1;
  local.sort(byName);
  remote.sort(byName);
  const sym = await git(t, ["symbolic-ref", "-q", "--short", "HEAD"]);
  const headSha = await git(t, ["rev-parse", "--short", "-q", "--verify", "HEAD"]);
  const head = headSha.ok ? headSha.stdout.trim() : null;
  const current = sym.ok ? sym.stdout.trim() : head ?? "HEAD";
  const mine = local.find((b) => b.current);
  return {
    is_git: true,
    current,
    detached: !sym.ok && head !== null,
    head,
    local,
    remote,
    upstream: mine?.upstream ?? "",
    ahead: mine?.ahead ?? 0,
    behind: mine?.behind ?? 0,
  };
}

/** Where a switch goes: the original's `{ref, mode, new_branch, track}`. */
export interface CheckoutTarget {
  ref: string;
  mode: "local" | "new" | "remote" | "detached";
  newBranch?: string | null;
  track?: boolean;
}

/** A branch name git accepts, never an option. */
async function checkBranchName(t: GitTarget, name: unknown, field = "branch"): Promise<string> {
  if (typeof name !== "string" || name === "" || name.length > 200 || name.startsWith("-")) {
    throw new ValidationError(`Invalid field "${field}": give a branch name`, field, {
      code: "invalid_ref",
    });
  }
  const r = await git(t, ["check-ref-format", "--branch", name]);
  if (!r.ok) {
    throw new ValidationError(`"${name}" is not a valid branch name`, field, {
      code: "invalid_ref",
    });
  }
  return name;
}

const refExists = async (t: GitTarget, full: string) =>
  (await git(t, ["rev-parse", "-q", "--verify", full])).ok;

/** A commit-ish to start from (never an option), as git's own name for it. */
async function checkStart(t: GitTarget, ref: string): Promise<string> {
  if (!ref || ref.length > 400 || ref.startsWith("-") || !await refExists(t, `${ref}^{commit}`)) {
    throw new NotFoundError(`No commit "${ref}" to switch to`);
  }
  return ref;
}

async function newBranchName(t: GitTarget, name: unknown, field: string): Promise<string> {
  const ok = await checkBranchName(t, name, field);
  if (await refExists(t, `refs/heads/${ok}`)) {
    throw new ConflictError(`A branch "${ok}" already exists`, { code: "invalid_ref" });
  }
  return ok;
}

/**
 * Validate a switch and return the git commands it takes (nothing runs yet, so a bad target
 * changes nothing, not even a stash).
 */
async function planSwitch(t: GitTarget, target: CheckoutTarget): Promise<string[][]> {
  const ref = String(target.ref ?? "").trim();
  switch (target.mode) {
    case "local": {
      const name = await checkBranchName(t, ref, "ref");
      if (!await refExists(t, `refs/heads/${name}`)) {
        throw new NotFoundError(`No local branch "${name}"`);
      }
      return [["switch", "-q", "--no-guess", name]];
    }
    case "new": {
      const name = await newBranchName(t, target.newBranch || ref, "new_branch");
      const from = target.newBranch && ref && ref !== target.newBranch ? ref : "HEAD";
      // An unborn branch has no HEAD to start from: `switch -c` alone makes the new one unborn.
      if (from === "HEAD" && !await refExists(t, "HEAD")) return [["switch", "-q", "-c", name]];
      return [["switch", "-q", "-c", name, await checkStart(t, from)]];
    }
    case "remote": {
      if (!ref || ref.startsWith("-") || !await refExists(t, `refs/remotes/${ref}`)) {
        throw new NotFoundError(`No remote branch "${ref}"`);
      }
      const localName = await checkBranchName(
        t,
        target.newBranch || ref.split("/").slice(1).join("/"),
        "new_branch",
      );
      if (await refExists(t, `refs/heads/${localName}`)) {
        const steps = [["switch", "-q", "--no-guess", localName]];
        if (target.track) steps.push(["branch", "-q", `--set-upstream-to=${ref}`, localName]);
        return steps;
      }
      return [[
        "switch",
        "-q",
        "-c",
        localName,
        target.track ? "--track" : "--no-track",
        `refs/remotes/${ref}`,
      ]];
    }
    case "detached":
      return [["switch", "-q", "--detach", await checkStart(t, ref)]];
  }
  throw new ValidationError('Invalid field "mode": local, new, remote or detached', "mode", {
    code: "invalid_ref",
  });
}

async function runPlan(t: GitTarget, plan: string[][]): Promise<void> {
  for (const args of plan) must(await git(t, args, true), `switch (${args.at(-1)})`);
}

export interface CheckoutResult {
  ok: true;
  git: PanelStatus;
  branches: BranchList;
  current_branch: string;
  message: string;
}

async function afterSwitch(t: GitTarget): Promise<CheckoutResult> {
  const list = await branches(t);
  return {
    ok: true,
    git: await panelStatus(t),
    branches: list,
    current_branch: list.current,
    message: `Switched to ${list.detached ? "commit " : ""}${list.current}`,
  };
}

/** Every changed file the panel shows (renames with their old name): what a stash may take. */
async function visibleChanges(t: GitTarget): Promise<string[]> {
  const st = await panelStatus(t, { limit: STATUS_PAGE_MAX });
  if (!st.is_git) return [];
  if (st.total > MAX_PATHS) {
    throw new ConflictError(
      `${st.total} files changed: too many to park from the panel; commit or stash them in the terminal`,
      { code: "too_many_changes" },
    );
  }
  return [...new Set(st.files.flatMap((f) => f.old_path ? [f.path, f.old_path] : [f.path]))];
}

/**
 * Switch branches. `blockDirty` (the original's dirty_mode "block") refuses while any file the
 * panel shows is changed; without it git itself refuses only changes a switch would overwrite.
 */
export function checkout(
  t: GitTarget,
  target: CheckoutTarget,
  opts: { blockDirty?: boolean } = {},
): Promise<CheckoutResult> {
  return locked(t, async () => {
    await requireRepo(t);
    const plan = await planSwitch(t, target);
    if (opts.blockDirty && (await visibleChanges(t)).length) {
      throw new ConflictError(
        "The worktree has uncommitted changes: commit them, or switch with them stashed",
        { code: "dirty_worktree" },
      );
    }
    await runPlan(t, plan);
    return await afterSwitch(t);
  });
}

/** The subject prefix of the stashes stash-and-switch makes (the original's, so both find them). */
export const SWITCH_STASH_PREFIX = "hermes-webui branch switch";

interface SwitchStash {
  ref: string;
  branch: string;
  message: string;
}

/** This tool's branch-switch stashes, newest first, with the branch each was made on. */
async function switchStashes(t: GitTarget): Promise<SwitchStash[]> {
  const r = await git(t, ["stash", "list", "--format=%gd%x00%gs"]);
  if (!r.ok) return [];
  const out: SwitchStash[] = [];
  for (const line of r.stdout.split("\n")) {
    const [ref, subject = ""] = line.split("\0");
    const m = subject.match(/^On (.+?): (.*)$/s);
    if (ref && m && m[2].startsWith(SWITCH_STASH_PREFIX)) {
      out.push({ ref, branch: m[1], message: m[2] });
    }
  }
  return out;
}

export interface StashCheckoutResult extends CheckoutResult {
  stash_name: string;
  stashed: boolean;
  restored_stash: SwitchStash | null;
  restore_failed: boolean;
  restore_error: string;
  restore_stash: SwitchStash | null;
}

/**
 * Switch with local changes parked: the changed files (untracked ones too) go into a stash named
 * after the target, the switch runs (a failed one gives the changes straight back), and a stash
 * made earlier when leaving the branch now checked out is popped onto the clean worktree. A pop
 * that conflicts keeps its stash and says so (restore_failed, restore_error).
 */
export function stashAndCheckout(
  t: GitTarget,
  target: CheckoutTarget,
): Promise<StashCheckoutResult> {
  return locked(t, async () => {
    await requireRepo(t);
    const plan = await planSwitch(t, target);
    const label = String(target.newBranch || target.ref || "HEAD").trim() || "HEAD";
    const stashName = `${SWITCH_STASH_PREFIX} to ${label}`;
    const changed = await visibleChanges(t);
    let stashed = false;
    if (changed.length) {
      must(
        await git(t, [
          ...await identityArgs(t),
          "stash",
          "push",
          "--include-untracked",
          "-q",
          "-m",
          stashName,
          "--",
          ...changed,
        ], true),
        "stash the local changes",
      );
      stashed = true;
    }
    try {
      await runPlan(t, plan);
    } catch (err) {
      if (stashed) await git(t, ["stash", "pop", "-q", "--index", "stash@{0}"], true);
      throw err;
    }
    let restored: SwitchStash | null = null;
    let failed: SwitchStash | null = null;
    let restoreError = "";
    const sym = await git(t, ["symbolic-ref", "-q", "--short", "HEAD"]);
    if (sym.ok && !(await visibleChanges(t)).length) {
      const here = sym.stdout.trim();
      const parked = (await switchStashes(t)).find((s) => s.branch === here);
      if (parked) {
        const pop = await git(t, ["stash", "pop", "-q", "--index", parked.ref], true);
        if (pop.ok) restored = parked;
        else {
          failed = parked;
          restoreError = gitMessage(pop);
        }
      }
    }
    return {
      ...await afterSwitch(t),
      stash_name: stashed ? stashName : "",
      stashed,
      restored_stash: restored,
      restore_failed: failed !== null,
      restore_error: restoreError,
      restore_stash: failed,
    };
  });
}
