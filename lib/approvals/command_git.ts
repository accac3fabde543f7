// git rules of the command policy: what deletes, discards or rewrites work (reset --hard, clean
// without -n, checkout -- / restore, force push, branch -D, stash drop), and what makes git run
// other code later (git -c, git config of hook/alias/pager keys). Computed arguments ask.
import { add, isComputed, type Scope, shortFlags } from "./command_patterns.ts";

/** git subcommands that delete, discard or rewrite: computed arguments to them ask. */
const GIT_DESTRUCTIVE = new Set(
  "reset clean checkout restore switch push branch rm stash filter-branch filter-repo update-ref reflog gc prune worktree config tag rebase"
    .split(" "),
);
/** git config keys whose value is a command git will run later. */
const GIT_CODE_KEY =
  /^(core\.(hookspath|fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|alias\..+|.*\.(textconv|command|cmd|helper|process|clean|smudge|program)|diff\.external|sequence\.editor|uploadpack\.packobjectshook|include\.path|includeif\..*)$/i;

export function judgeGit(args: string[], scope: Scope): void {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    // -c KEY=VALUE can point hooks, pagers, aliases or clean.requireForce anywhere: ask.
    if (args[i] === "-c" || args[i].startsWith("--config-env")) add(scope, "git_config_override");
    i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"].includes(args[i])
      ? 2
      : 1;
  }
  const sub = args[i];
  if (sub === undefined) return;
  const rest = args.slice(i + 1);
  if (isComputed(sub) || (GIT_DESTRUCTIVE.has(sub) && rest.some(isComputed))) {
    add(scope, "computed_argument");
  }
  const flags = shortFlags(rest);
  if (sub === "reset" && rest.includes("--hard")) add(scope, "git_reset_hard");
  if (sub === "push") {
    if (
      /f/.test(flags) || rest.some((a) =>
        /^--(force|force-with-lease|force-if-includes|mirror)(=|$)/.test(a)
      ) ||
      rest.some((a) => /^\+/.test(a))
    ) add(scope, "git_force_push");
  }
  // git clean deletes unless it is a dry run (-n); clean.requireForce may be off in config.
  if (sub === "clean" && !/n/.test(flags) && !rest.includes("--dry-run")) add(scope, "git_clean");
  if (sub === "branch") {
    const del = /d/.test(flags) || rest.includes("--delete");
    if (/D/.test(flags) || (del && (/f/.test(flags) || rest.includes("--force")))) {
      add(scope, "git_branch_delete");
    }
  }
  if (sub === "checkout") {
    const ops = rest.filter((a) => !a.startsWith("-"));
    if (
      rest.includes("--") || ops.includes(".") || /f/.test(flags) || rest.includes("--force") ||
      rest.some((a) => /^--(ours|theirs)$/.test(a))
    ) add(scope, "git_discard");
  }
  if (sub === "restore") {
    const staged = rest.some((a) => a === "--staged" || /^-[a-zA-Z]*S/.test(a));
    const worktree = rest.some((a) => a === "--worktree" || /^-[a-zA-Z]*W/.test(a));
    if (!staged || worktree) add(scope, "git_discard");
  }
  if (sub === "stash" && ["drop", "clear"].includes(rest[0])) add(scope, "git_discard");
  // stash -u / -a takes untracked (and ignored) files out of the work tree into the stash.
  if (
    sub === "stash" &&
    !["list", "show", "drop", "clear", "pop", "apply", "branch"].includes(rest[0]) &&
    (/[ua]/.test(flags) || rest.some((a) => /^--(include-untracked|all)$/.test(a)))
  ) add(scope, "git_stash_untracked");
  if (sub === "rm" && (/r/.test(flags) || rest.includes("--recursive"))) add(scope, "rm_recursive");
  if (sub === "config") {
    const ops = rest.filter((a) => !a.startsWith("-"));
    const key = ops[0] === "set" ? ops[1] : ops[0];
    const setting = ops.length >= (ops[0] === "set" ? 3 : 2);
    if (key && setting && GIT_CODE_KEY.test(key)) add(scope, "git_config_override");
  }
}
