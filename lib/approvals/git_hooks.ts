// git runs code kept in the repository: hooks (.git/hooks, or core.hooksPath) and commands in its
// config (core.fsmonitor, aliases, filters, pagers, include.path…). The command policy finds the
// repository a git command works on — the `.git` above each directory the line may be in, a
// `.git` file's `gitdir:`, `-C` and `--git-dir` — and asks:
// - `git_hooks` for a command that starts hooks (commit, merge, push, checkout, add, …) when the
//   repository has any hook or a hooks path, even the person's own;
// - `git_hooks_changed` for every git command once a hook, or a config holding commands, changed
//   since the person's last approval (post-index-change and fsmonitor run even for `git status`).
// Invariants: what cannot be read (a hooks directory leaving the workspace, an oversized config,
// a directory the line reached by a computed `cd`) counts as hooks that changed; a repository
// outside the workspace is not judged here (the sandbox shows the agent no writable one there).
import { add, type Scope, words } from "./command_patterns.ts";
import {
  changedOrUnknown,
  foldRel,
  placeOf,
  relJoin as join,
  relParent as parent,
  writesIn,
  writtenHere,
} from "./changed_files.ts";

/** git commands that never start a hook (they read, or write no ref and no index). */
const NO_HOOKS = words(
  "status diff log show blame annotate grep ls-files ls-tree ls-remote rev-parse rev-list " +
    "cat-file describe shortlog help version whatchanged show-ref for-each-ref name-rev " +
    "check-ignore check-attr check-ref-format count-objects var diff-tree diff-files " +
    "diff-index merge-base format-patch archive config remote init clone fsck verify-commit " +
    "verify-tag show-branch cherry range-diff bugreport",
);

/** Last parts of config keys whose value is a command or a path git loads code from. */
const CODE_KEY_END = new RegExp(
  `(${
    "command cmd program helper hook driver editor pager textconv process clean smudge askpass " +
    "proxy fsmonitor external pack path"
  }`.replaceAll(" ", "|") + ")$",
  "i",
);

/** What a repository's config says about code it runs. */
interface ConfigFacts {
  /** core.hooksPath, when set. */
  hooksPath?: string;
  /** Any key holding a command or loading more config (include.path, includeIf). */
  runsCode: boolean;
}

/** Read the keys of a git config file (sections, subsections, `key = value` lines). */
export function configFacts(text: string): ConfigFacts {
  const facts: ConfigFacts = { runsCode: false };
  let section = "";
  for (let line of text.split("\n")) {
    const head = line.match(/^\s*\[\s*([^\]\s"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/);
    if (head) {
      section = head[1].toLowerCase();
      if (head[2] !== undefined || section.includes(".")) {
        if (/^(alias|includeif|pager|filter|diff|merge|credential)\b/.test(section)) {
          facts.runsCode = true;
        }
      }
      if (/^(include|alias|pager)$/.test(section)) facts.runsCode = true;
      line = line.slice(head[0].length);
    }
    const kv = line.match(/^\s*([A-Za-z][\w-]*)\s*(?:=\s*(.*))?$/);
    if (!kv || !section) continue;
    const key = kv[1].toLowerCase();
    if (CODE_KEY_END.test(key)) facts.runsCode = true;
    if (section === "core" && key === "hookspath") {
      facts.hooksPath = (kv[2] ?? "").trim().replace(/^"(.*)"$/, "$1");
    }
  }
  return facts;
}

/**
 * The git directory (workspace-relative) of the repository containing `rel`: "unknown" when it
 * cannot be read, null when there is none inside the workspace.
 */
function findGitDir(rel: string, scope: Scope): string | "unknown" | null {
  const files = scope.opts.files!;
  // Look at every level first, so a prefetched view learns them all in one round.
  for (let dir: string | null = foldRel(rel); dir !== null; dir = parent(dir)) {
    files.stat(join(dir, ".git"));
  }
  for (let dir: string | null = foldRel(rel); dir !== null; dir = parent(dir)) {
    const dotGit = join(dir, ".git");
    const st = files.stat(dotGit);
    if (st === undefined) return "unknown";
    if (st === null) continue;
    if (st.isDirectory) return dotGit;
    const text = files.read(dotGit);
    if (text === undefined) return "unknown";
    const target = text?.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
    if (!target) return null;
    const ws = scope.opts.workspace!.replace(/\/+$/, "");
    if (target.startsWith("/")) {
      return target === ws || target.startsWith(ws + "/")
        ? foldRel(target.slice(ws.length + 1) || ".")
        : null;
    }
    return foldRel(join(dir, target));
  }
  return null;
}

/** Whether a hooks directory holds hooks (not git's `.sample` files), and whether one changed. */
function hooksIn(dir: string, scope: Scope): { present: boolean; changed: boolean } {
  const ws = scope.opts.workspace!.replace(/\/+$/, "");
  const written = writesIn(`${ws}/${dir}`, scope);
  const names = scope.opts.files!.list(dir);
  if (names === undefined || written === "any") return { present: true, changed: true };
  const hooks = (names ?? []).filter((n) => !n.endsWith(".sample"));
  // Every hook is looked at (see findGitDir).
  const changed = hooks.map((n) => changedOrUnknown(join(dir, n), scope)).includes(true) ||
    written.length > 0;
  return { present: hooks.length > 0 || written.length > 0, changed };
}

/** What a repository runs: hooks present, and whether hooks or code in its config changed. */
function judgeRepository(
  gitDir: string,
  workTree: string,
  scope: Scope,
): { present: boolean; changed: boolean } {
  const files = scope.opts.files!;
  const hooks = hooksIn(join(gitDir, "hooks"), scope);
  const config = join(gitDir, "config");
  const text = files.read(config);
  if (text === undefined) return { present: true, changed: true };
  const facts = configFacts(text ?? "");
  let { present, changed } = hooks;
  if (writtenHere(config, scope)) changed = true;
  if (facts.runsCode && changedOrUnknown(config, scope)) changed = true;
  if (facts.hooksPath !== undefined) {
    present = true;
    const ws = scope.opts.workspace!.replace(/\/+$/, "");
    const p = facts.hooksPath;
    const rel = p.startsWith("/")
      ? (p === ws || p.startsWith(ws + "/") ? foldRel(p.slice(ws.length + 1) || ".") : null)
      : p.startsWith("~")
      ? null
      : foldRel(join(workTree, p));
    if (rel !== null) changed ||= hooksIn(rel, scope).changed;
  }
  return { present, changed };
}

/** Whether `sub` (with its arguments) may start a hook. */
function startsHooks(sub: string, rest: string[]): boolean {
  if (NO_HOOKS.has(sub)) return false;
  const operands = rest.filter((a) => !a.startsWith("-"));
  if ((sub === "branch" || sub === "tag") && operands.length === 0) {
    return rest.some((a) => /^-[a-zA-Z]*[dDmMcC]|^--(delete|move|copy)/.test(a));
  }
  if (sub === "stash" && ["list", "show"].includes(operands[0])) return false;
  return true;
}

/**
 * Judge a git command (argv after `git`) against the hooks and config of the repository it
 * works on. Needs a view of the workspace; without one only what the line writes is judged.
 */
export function judgeGitHooks(args: string[], scope: Scope): void {
  if (!scope.opts.workspace || !scope.opts.files) return;
  let i = 0;
  let dir = ".";
  let gitDirWord: string | undefined;
  while (i < args.length && args[i].startsWith("-")) {
    const a = args[i];
    const value = (opt: string) => a === opt ? args[++i] ?? "" : a.slice(opt.length + 1);
    if (a === "-C") {
      const d = args[++i] ?? "";
      dir = d.startsWith("/") || d.startsWith("~") ? d : `${dir}/${d}`;
    } else if (a === "--git-dir" || a.startsWith("--git-dir=")) gitDirWord = value("--git-dir");
    else if (a === "--exec-path" || a.startsWith("--exec-path=")) {
      // git starts its helper programs from this directory.
      if (value("--exec-path") !== "") add(scope, "code_env_var");
    } else if (["-c", "--work-tree", "--namespace", "--config-env"].includes(a)) i++;
    i++;
  }
  const sub = args[i];
  if (sub === undefined || sub === "help" || sub === "version") return;
  const hookish = startsHooks(sub, args.slice(i + 1));
  const place = placeOf(gitDirWord ?? dir, scope);
  if (place.kind === "unknown") {
    if (hookish) add(scope, "git_hooks");
    return;
  }
  if (place.kind !== "workspace") return;
  for (const rel of place.rels) {
    const gitDir = gitDirWord !== undefined ? foldRel(rel) : findGitDir(rel, scope);
    if (gitDir === null) continue;
    if (gitDir === "unknown") {
      add(scope, hookish ? "git_hooks" : "git_hooks_changed");
      continue;
    }
    const workTree = parent(gitDir) ?? ".";
    const { present, changed } = judgeRepository(gitDir, workTree, scope);
    if (changed) add(scope, "git_hooks_changed");
    if (present && hookish) add(scope, "git_hooks");
  }
}
