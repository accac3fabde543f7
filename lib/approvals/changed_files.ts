// File rules of the command policy: where a path word points (the workspace, the read-only
// system trees, somewhere else, or unknown), which directories a line may be in, what it
// writes, and the questions built on them — running a file that changed since the person's last
// approval, editing an existing file in place, moving files out of the workspace.
// Invariants: a path that cannot be resolved (computed, a directory the line left for somewhere
// unknown, a symlink out of the workspace) asks; outside the workspace only the system trees
// (read-only in the sandbox) count as unchanged — the sandbox's /tmp and home are fresh per
// command, so anything there was made by this very line.
import {
  add,
  isComputed,
  type PatternKey,
  type Scope,
  shortFlags,
  words,
} from "./command_patterns.ts";

/** Marks the directory set when a `cd` went somewhere the policy cannot resolve. */
const UNKNOWN_DIR = "\u2063?";
/** Marks the write set when the line writes files whose names it cannot see (tar -x, …). */
const ANY_WRITE = "\u2063*";
/** Like ANY_WRITE, for git rewriting the work tree: it never writes into a `.git` directory. */
const WORKTREE_WRITE = "\u2063git";
/** The sandbox's home (`~`): a fresh directory per command, outside the workspace. */
const HOME_DIR = "\u2063~";

/** Read-only in the sandbox (lib/sandbox/mount_plan.ts): nothing the agent changed lives there. */
const SYSTEM_TREES = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];

/** Where a path word points. `rels` are the candidates, relative to the workspace, unfolded. */
export type Place =
  | { kind: "workspace"; rels: string[] }
  | { kind: "system" }
  | { kind: "elsewhere" }
  | { kind: "unknown" };

/** Fold `.` and `..` of an absolute path the way `cd` does (logically). */
export function fold(abs: string): string {
  const parts: string[] = [];
  for (const seg of abs.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

const workspaceOf = (scope: Scope) => scope.opts.workspace?.replace(/\/+$/, "") || undefined;

/** `name` inside the workspace-relative directory `dir`. */
export const relJoin = (dir: string, name: string) => dir === "." ? name : `${dir}/${name}`;
/** The directory holding a workspace-relative path; null above the root. */
export const relParent = (rel: string) =>
  rel === "." ? null : rel.includes("/") ? rel.replace(/\/[^/]*$/, "") : ".";

/** Fold `.` and `..` of a workspace-relative path; null when it climbs out. */
export function foldRel(rel: string): string | null {
  const parts: string[] = [];
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/") || ".";
}

const isInside = (abs: string, ws: string) => abs === ws || abs.startsWith(ws + "/");

/** The directories a line starts in: the workspace's `cwd` (see PolicyOptions). */
export function startDirs(opts: Scope["opts"]): Set<string> {
  const ws = opts.workspace?.replace(/\/+$/, "");
  return new Set(ws ? [fold(`${ws}/${opts.cwd ?? "."}`)] : []);
}

/** Place of one absolute path (`raw` keeps its `..` for the view, which resolves symlinks). */
function placeAbsolute(raw: string, ws: string): Place {
  const abs = fold(raw);
  if (isInside(abs, ws)) {
    // The view resolves `rel` like the kernel; lexically inside is only where to start.
    const rel = raw.startsWith(ws + "/") ? raw.slice(ws.length + 1) : abs.slice(ws.length + 1);
    return { kind: "workspace", rels: [rel.replace(/\/+$/, "") || "."] };
  }
  // Climbing out through `..` is resolved by the kernel after symlinks: only a plain path into a
  // system tree is sure to stay there.
  if (SYSTEM_TREES.some((t) => abs === t || abs.startsWith(t + "/")) && !raw.includes("/..")) {
    return { kind: "system" };
  }
  return { kind: "elsewhere" };
}

/** Where `word` points from the directories the line may be in. */
export function placeOf(word: string, scope: Scope): Place {
  const ws = workspaceOf(scope);
  if (!ws || word === "" || isComputed(word)) return { kind: "unknown" };
  if (word === "~" || word.startsWith("~/")) return { kind: "elsewhere" };
  if (word.startsWith("/")) return placeAbsolute(word, ws);
  if (word.startsWith("~")) return { kind: "unknown" };
  const rels: string[] = [];
  let elsewhere = false;
  for (const dir of scope.dirs) {
    if (dir === UNKNOWN_DIR) return { kind: "unknown" };
    if (dir === HOME_DIR) {
      elsewhere = true;
      continue;
    }
    const p = placeAbsolute(`${dir}/${word}`, ws);
    if (p.kind === "workspace") rels.push(...p.rels);
    else if (p.kind === "unknown") return p;
    else if (p.kind === "elsewhere") elsewhere = true;
  }
  if (elsewhere) return { kind: "elsewhere" };
  return rels.length ? { kind: "workspace", rels } : { kind: "system" };
}

/** `cd`/`pushd`: every directory reached joins the candidates (none is ever dropped). */
export function enterDir(args: string[], scope: Scope): void {
  const target = args.find((a) => !/^-[LPe@]+$/.test(a));
  if (target === "-") return;
  if (target === undefined || target === "~" || target.startsWith("~/")) {
    scope.dirs.add(HOME_DIR);
    return;
  }
  const ws = workspaceOf(scope);
  if (!ws || isComputed(target) || target.startsWith("~")) {
    scope.dirs.add(UNKNOWN_DIR);
    return;
  }
  if (target.startsWith("/")) {
    scope.dirs.add(fold(target));
    return;
  }
  for (const dir of [...scope.dirs]) {
    if (dir === UNKNOWN_DIR || dir === HOME_DIR) continue;
    scope.dirs.add(fold(`${dir}/${target}`));
  }
}

/** Record a path this line writes (redirect, tee, cp/mv destination, curl -o, …). */
export function noteWrite(word: string, scope: Scope): void {
  const ws = workspaceOf(scope);
  if (!ws) return;
  if (isComputed(word) || word.startsWith("~") && word !== "~" && !word.startsWith("~/")) {
    scope.writes.add(ANY_WRITE);
    return;
  }
  for (const dir of word.startsWith("/") || word.startsWith("~") ? ["/"] : scope.dirs) {
    if (dir === UNKNOWN_DIR) scope.writes.add(ANY_WRITE);
    else if (word.startsWith("~")) scope.writes.add(HOME_DIR + word.slice(1));
    else scope.writes.add(fold(word.startsWith("/") ? word : `${dir}/${word}`));
  }
}

const inGitDir = (path: string) => /(^|\/)\.git(\/|$)/i.test(path);

/** Whether this line may have written `rel` (a workspace path) or a directory holding it. */
export function writtenHere(rel: string, scope: Scope): boolean {
  if (scope.writes.has(ANY_WRITE)) return true;
  const ws = workspaceOf(scope);
  if (!ws) return false;
  const abs = fold(`${ws}/${rel}`);
  if (scope.writes.has(WORKTREE_WRITE) && !inGitDir(abs.slice(ws.length))) return true;
  for (const w of scope.writes) {
    if (abs === w || abs.startsWith(w === "/" ? "/" : w + "/")) return true;
  }
  return false;
}

/** Paths this line writes inside `dir` (absolute, folded), for rules that scan a directory. */
export function writesIn(dir: string, scope: Scope): string[] | "any" {
  if (scope.writes.has(ANY_WRITE)) return "any";
  if (scope.writes.has(WORKTREE_WRITE) && !inGitDir(dir)) return "any";
  return [...scope.writes].filter((w) => w.startsWith(dir + "/")).map((w) =>
    w.slice(dir.length + 1)
  );
}

/** Whether the view says `rel` changed since the baseline, or cannot say. */
export function changedOrUnknown(rel: string, scope: Scope): boolean {
  const st = scope.opts.files?.stat(rel);
  return st === undefined || (st !== null && st.changedAt >= (scope.opts.changedSince ?? 0));
}

/**
 * Running a file (a script operand, a program path, a recipe named with -f): asks when it
 * changed since the baseline, when this line writes it, when it does not exist yet, and when
 * it lies where the policy cannot look. Without a view of the workspace, files inside it are
 * not judged (see PolicyOptions.files).
 */
export function checkRunFile(
  word: string,
  scope: Scope,
  key: PatternKey = "run_changed_script",
): void {
  if (!workspaceOf(scope)) return;
  const place = placeOf(word, scope);
  if (place.kind === "system") return;
  if (place.kind !== "workspace") return add(scope, key);
  if (place.rels.some((rel) => writtenHere(rel, scope))) return add(scope, key);
  const files = scope.opts.files;
  if (!files) return;
  // Every candidate is looked at (no early return), so a prefetched view learns them at once.
  const states = place.rels.map((rel) => [rel, files.stat(rel)] as const);
  if (states.some(([rel]) => changedOrUnknown(rel, scope))) return add(scope, key);
  // Not there yet: it will be made by this line or by something the policy cannot follow.
  if (!states.some(([, st]) => st)) add(scope, key);
}

/**
 * Editing a file in place (sed -i, perl -i, truncate, dd of=, gawk -i inplace) destroys what an
 * existing workspace file held: that asks, as does a target the policy cannot resolve. A file
 * that does not exist yet, or lies outside the workspace, is not the person's work.
 */
export function checkInPlace(word: string, scope: Scope): void {
  if (!workspaceOf(scope)) return;
  const place = placeOf(word, scope);
  if (place.kind === "unknown") return add(scope, "overwrite_in_place");
  if (place.kind !== "workspace" || !scope.opts.files) return;
  for (const rel of place.rels) {
    if (scope.opts.files.stat(rel) !== null) return add(scope, "overwrite_in_place");
  }
}

/**
 * Whether a move's destination takes files out of the workspace: outside it, resolved through
 * a symlink that leaves it, or not resolvable at all (computed, or from an unknown directory).
 */
export function leavesWorkspace(dest: string, scope: Scope): boolean {
  if (!workspaceOf(scope)) return false;
  const place = placeOf(dest, scope);
  if (place.kind !== "workspace") return true;
  const files = scope.opts.files;
  return !!files && place.rels.some((rel) => files.stat(rel) === undefined);
}

/** Archive and decode tools that create files named inside their input, not on the line. */
const EXTRACTORS: Record<string, (args: string[]) => boolean> = {
  tar: (a) =>
    /x/.test(a[0] && !a[0].startsWith("-") ? a[0] : "") || /x/.test(shortFlags(a)) ||
    a.includes("--extract") || a.includes("--get"),
  bsdtar: (a) => /x/.test(shortFlags(a)) || a[0] === "x",
  unzip: () => true,
  "7z": (a) => a[0] === "x" || a[0] === "e",
  "7za": (a) => a[0] === "x" || a[0] === "e",
  cpio: (a) => /i/.test(shortFlags(a)) || a.includes("--extract"),
  ar: (a) => /x/.test(a[0] ?? ""),
  gunzip: () => true,
  unxz: () => true,
  unzstd: () => true,
  bunzip2: () => true,
  uncompress: () => true,
  gzip: (a) => /d/.test(shortFlags(a)) || a.includes("--decompress"),
  bzip2: (a) => /d/.test(shortFlags(a)) || a.includes("--decompress"),
  xz: (a) => /d/.test(shortFlags(a)) || a.includes("--decompress"),
  zstd: (a) => /d/.test(shortFlags(a)) || a.includes("--decompress"),
  uudecode: () => true,
  patch: () => true,
  split: () => true,
  csplit: () => true,
  wget: (a) => !a.some((x) => /^(-[A-Za-z]*O|--output-document)/.test(x)),
  curl: (a) => a.some((x) => /^-[A-Za-z]*[OJ]/.test(x) || /^--remote-name/.test(x)),
  xxd: (a) => /r/.test(shortFlags(a)),
  openssl: (a) => a.includes("-out"),
  sort: (a) => a.some((x) => /^-[A-Za-z]*o/.test(x) || x.startsWith("--output")),
};
/** git subcommands that rewrite files of the work tree from the repository. */
const GIT_WORKTREE = words(
  "checkout switch merge pull rebase cherry-pick revert am apply stash reset restore read-tree " +
    "checkout-index worktree clone submodule mv sparse-checkout",
);

/**
 * Note writes the line cannot name (archives, patches, decoders, git checkouts): a later run of
 * a workspace file in the same line can no longer be judged by its time, so it asks.
 */
export function noteUnseenWrites(name: string, args: string[], scope: Scope): void {
  const git = name === "git" &&
    GIT_WORKTREE.has(
      args.find((a, i) => !a.startsWith("-") && !/^-[Cc]$/.test(args[i - 1])) ?? "",
    );
  if (git) scope.writes.add(WORKTREE_WRITE);
  else if (Object.hasOwn(EXTRACTORS, name) && EXTRACTORS[name](args)) scope.writes.add(ANY_WRITE);
}
