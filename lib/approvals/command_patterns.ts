// The command policy's vocabulary: every pattern the policy can report, by stable key, with its
// tier and human description (allowlists in config.yaml store these keys, so they never change
// meaning), plus the shared command-name sets and the scope a judgement accumulates into.

import { SUBST_MARK } from "./shell_syntax.ts";
import type { WorkspaceView } from "./workspace_view.ts";

export type Tier = "hardline" | "dangerous" | "safe";

export interface PatternMatch {
  pattern_key: string;
  description: string;
}

export interface PolicyOptions {
  /** The console's own config file: writes to it need approval. */
  configPath?: string;
  /** The home directory: its literal path is treated like `~`. */
  home?: string;
  /** The session workspace: paths inside it are never "system paths". */
  workspace?: string;
  /** Where the command starts, relative to the workspace (the terminal's `workdir`, or "."). */
  cwd?: string;
  /**
   * Files whose status changed at or after this time (ms) count as written by the agent: the
   * person's last approval of running changed code, or the session's start.
   */
  changedSince?: number;
  /**
   * A view of the workspace's files (lib/approvals/workspace_view.ts). Without one the policy
   * cannot tell changed files from the person's, and judges what the line itself shows.
   */
  files?: WorkspaceView;
}

export type P = { tier: "hardline" | "dangerous"; description: string };

/** Every pattern the policy knows, by stable key. */
export const PATTERNS = {
  // Hardline: never run, even with approvals skipped.
  rm_root: { tier: "hardline", description: "Recursive delete of the root filesystem (/)" },
  rm_system_root: {
    tier: "hardline",
    description: "Recursive delete of a system directory (/etc, /usr, /var, /home, …)",
  },
  rm_home: { tier: "hardline", description: "Recursive delete of the home directory (~)" },
  find_delete_root: {
    tier: "hardline",
    description: "find -delete / -exec rm over /, a system directory or the home directory",
  },
  format_device: {
    tier: "hardline",
    description: "Formatting or wiping a device (mkfs, wipefs, blkdiscard, shred on /dev/…)",
  },
  write_block_device: {
    tier: "hardline",
    description: "Writing directly to a block device (dd of=/dev/…, > /dev/sd…)",
  },
  fork_bomb: { tier: "hardline", description: "Fork bomb" },
  kill_all_processes: { tier: "hardline", description: "Killing every process (kill -1)" },
  shutdown_host: {
    tier: "hardline",
    description: "Shutting down or rebooting the machine (shutdown, reboot, halt, init 0/6)",
  },
  // Dangerous: ask first.
  rm_recursive: { tier: "dangerous", description: "Recursive delete (rm -r)" },
  rm_system_path: { tier: "dangerous", description: "Deleting a file in a system directory" },
  find_delete: { tier: "dangerous", description: "Deleting files with find (-delete, -exec rm)" },
  xargs_rm: { tier: "dangerous", description: "Deleting files listed through xargs" },
  format_filesystem: { tier: "dangerous", description: "Creating or wiping a filesystem" },
  chmod_world_writable: {
    tier: "dangerous",
    description: "Making files world-writable (chmod 777, o+w)",
  },
  chmod_system_path: {
    tier: "dangerous",
    description: "Recursive permission change of a system directory",
  },
  chown_root: {
    tier: "dangerous",
    description: "Recursive ownership change to root or of a system directory",
  },
  sql_drop: { tier: "dangerous", description: "SQL DROP TABLE / DATABASE" },
  sql_delete_all: { tier: "dangerous", description: "SQL DELETE without a WHERE clause" },
  sql_truncate: { tier: "dangerous", description: "SQL TRUNCATE" },
  write_etc: { tier: "dangerous", description: "Writing to /etc" },
  write_system_path: {
    tier: "dangerous",
    description: "Writing to a system directory (/usr, /bin, /boot, /sys, …)",
  },
  write_ssh: { tier: "dangerous", description: "Writing to ~/.ssh (keys, authorized_keys)" },
  write_shell_rc: {
    tier: "dangerous",
    description: "Writing to a shell start-up file (.bashrc, .zshrc, .profile, …)",
  },
  write_env_file: { tier: "dangerous", description: "Writing to a .env file" },
  write_credentials: {
    tier: "dangerous",
    description: "Writing to a credentials file (.aws/credentials, .netrc, .npmrc, id_rsa, …)",
  },
  write_hermes_config: {
    tier: "dangerous",
    description: "Writing to the console's own config file",
  },
  systemctl_stop: {
    tier: "dangerous",
    description: "Stopping or disabling a system service",
  },
  kill_force: {
    tier: "dangerous",
    description: "Force-killing processes by name (pkill -9, killall)",
  },
  pipe_download_to_shell: {
    tier: "dangerous",
    description: "Running a downloaded script (curl/wget piped into a shell or interpreter)",
  },
  pipe_decoded_to_shell: {
    tier: "dangerous",
    description: "Running a decoded blob (base64 -d / xxd -r piped into a shell)",
  },
  git_reset_hard: { tier: "dangerous", description: "git reset --hard (discards local changes)" },
  git_force_push: { tier: "dangerous", description: "git push --force (rewrites remote history)" },
  git_clean: { tier: "dangerous", description: "git clean -f (deletes untracked files)" },
  git_branch_delete: { tier: "dangerous", description: "git branch -D (force-deletes a branch)" },
  package_remove: {
    tier: "dangerous",
    description: "Removing installed packages (apt remove, pip uninstall, npm uninstall -g, …)",
  },
  sudo: { tier: "dangerous", description: "Running as another user (sudo, su, doas)" },
  cloud_metadata: {
    tier: "dangerous",
    description: "Reaching the cloud metadata service (169.254.169.254)",
  },
  crontab_remove: { tier: "dangerous", description: "Removing the crontab (crontab -r)" },
  // Dangerous because the policy cannot tell what would run: unresolvable means ask.
  computed_command: {
    tier: "dangerous",
    description: "Running a command whose name is computed at run time (substitution, " +
      "variable, glob), so what runs cannot be checked",
  },
  computed_code: {
    tier: "dangerous",
    description: "Handing a shell or interpreter code that is computed at run time " +
      '(eval "$(…)", sh <(…), bash -c "$X", a script piped in)',
  },
  computed_argument: {
    tier: "dangerous",
    description: "A command that deletes, overwrites or kills, with arguments computed at " +
      "run time (substitution, variable, xargs, loop)",
  },
  inline_code: {
    tier: "dangerous",
    description: "Inline interpreter code that may touch files, processes or the network " +
      "(python -c, node -e, perl -e, awk system(), sed e, …)",
  },
  git_config_override: {
    tier: "dangerous",
    description: "git -c or git config of keys that run commands (hooks, aliases, pagers)",
  },
  git_discard: {
    tier: "dangerous",
    description: "git checkout -- / restore / stash drop (discards uncommitted work)",
  },
  write_git_hooks: {
    tier: "dangerous",
    description: "Writing git hooks or .git/config (runs code on the next git command)",
  },
  namespace_tool: {
    tier: "dangerous",
    description: "Mounting or entering namespaces (mount, umount, nsenter, unshare, chroot, …)",
  },
  archive_outside: {
    tier: "dangerous",
    description: "Extracting an archive outside the workspace (tar -C /, tar -P, unzip -d /)",
  },
  rsync_delete: {
    tier: "dangerous",
    description: "rsync --delete / --remove-source-files (deletes files)",
  },
  // Dangerous because the command runs code the agent could have written: a changed file, a
  // file the line itself creates, or code an environment variable or start-up file points at.
  run_changed_script: {
    tier: "dangerous",
    description: "Runs a script or program the agent wrote or changed since your last approval " +
      "(or one that cannot be checked)",
  },
  run_changed_build_file: {
    tier: "dangerous",
    description: "Runs a build or package tool whose recipe (Makefile, package.json scripts, " +
      "deno.json tasks, …) changed since your last approval",
  },
  python_shadowed_module: {
    tier: "dangerous",
    description: "Runs Python next to a changed file named like a standard module (json.py, " +
      "os.py, …), which Python would load instead",
  },
  git_hooks: {
    tier: "dangerous",
    description: "Runs a git command that starts this repository's hooks (.git/hooks or " +
      "core.hooksPath), which can do anything",
  },
  git_hooks_changed: {
    tier: "dangerous",
    description: "Runs git after its hooks or repository settings changed since your last approval",
  },
  interactive_shell: {
    tier: "dangerous",
    description: "Starts an interactive shell, which runs start-up files such as .bashrc",
  },
  code_env_var: {
    tier: "dangerous",
    description: "Sets an environment variable that makes programs load or run other code " +
      "(a shell's start-up file, Python's or Node's module path, preloaded libraries, git's " +
      "settings, HOME, PATH, …)",
  },
  archive_remove_files: {
    tier: "dangerous",
    description: "Archiving or extracting in a way that deletes files (tar --remove-files, zip -m)",
  },
  shred_file: { tier: "dangerous", description: "Shredding files (destroys their contents)" },
  move_out_of_workspace: {
    tier: "dangerous",
    description: "Moving files out of the workspace (they disappear from it)",
  },
  overwrite_in_place: {
    tier: "dangerous",
    description:
      "Editing or emptying an existing file in place (sed -i, perl -i, truncate, dd of=)",
  },
  git_stash_untracked: {
    tier: "dangerous",
    description: "git stash -u / --all (takes untracked files out of the workspace)",
  },
} as const satisfies Record<string, P>;

export type PatternKey = keyof typeof PATTERNS;

/**
 * Approvals of these keys mean the person let changed workspace code run: the time of the last
 * one is the baseline after which a file counts as changed (lib/approvals/approvals.ts).
 */
export const CHANGED_CODE_KEYS: readonly PatternKey[] = [
  "run_changed_script",
  "run_changed_build_file",
  "python_shadowed_module",
  "git_hooks",
  "git_hooks_changed",
];

/** The marker `$HOME`, `${HOME}` and the literal home path are folded into. */
export const HOME = "~";

/** A set from a space-separated list (keeps long tables compact). */
export const words = (list: string) => new Set(list.split(" "));

export const SHELLS = words(
  "sh bash zsh dash ksh mksh fish ash csh tcsh",
);
export const INTERPRETERS = words(
  "python python2 python3 perl ruby node nodejs deno bun php lua Rscript osascript",
);
export const DOWNLOADERS = words(
  "curl wget fetch aria2c http https xh lynx",
);
export const SQL_CLIENTS = words(
  "psql mysql mariadb sqlite3 sqlite sqlcmd duckdb clickhouse-client clickhouse cockroach " +
    "mongo mongosh pgcli mycli litecli usql docker kubectl podman",
);
/** Commands that delete, overwrite, move or kill: computed arguments to them ask. */
export const DESTRUCTIVE = words(
  "rm unlink rmdir shred wipefs blkdiscard mkswap mke2fs dd truncate mv cp ln install tee " +
    "rsync scp chmod chown chgrp kill pkill killall tar unzip crontab systemctl",
);
/** Tools that mount filesystems or enter/create namespaces. */
export const NAMESPACE_TOOLS = words(
  "mount umount nsenter unshare chroot pivot_root switch_root capsh setns firejail bwrap " +
    "systemd-nspawn losetup fusermount fusermount3 newns",
);
export const KEYWORDS = words(
  "if then else elif fi do done while until { } ! time function [[ ]]",
);

/** What one classification accumulates while it walks a command line. */
export interface Scope {
  opts: PolicyOptions;
  found: Map<string, PatternMatch>;
  vars: Map<string, string>;
  cwd: string | null;
  depth: number;
  commandNames: Set<string>;
  /** Files this line writes (workspace-relative keys): running one later in it asks. */
  written: Set<string>;
  /**
   * Directories the line may be in (absolute, lexically folded; shared with nested scopes): a
   * relative path is looked up in each, since subshells and loops hide which one applies.
   */
  dirs: Set<string>;
  /** Absolute paths this line writes, for the file rules (lib/approvals/changed_files.ts). */
  writes: Set<string>;
}

/** Record a pattern match once. */
export const add = (scope: Scope, key: PatternKey) => {
  if (!scope.found.has(key)) {
    scope.found.set(key, { pattern_key: key, description: PATTERNS[key].description });
  }
};

export const basename = (p: string) => p.slice(p.lastIndexOf("/") + 1);
/** A word whose value the reader could not resolve (substitution or unknown expansion). */
export const isComputed = (w: string) => w.includes(SUBST_MARK);
export const isFlag = (a: string) => a.startsWith("-") && a !== "-" && a !== "--";
/** The letters of every short option (`-rf -v` → "rfv"). */
export function shortFlags(args: string[]): string {
  return args.filter((a) => /^-[A-Za-z]/.test(a) && !a.startsWith("--")).map((a) => a.slice(1))
    .join("");
}

/** Extract quoted string literals from interpreter code (python -c, perl -e, …). */
export function stringLiterals(code: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g;
  for (const m of code.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3]).replace(/\\(.)/g, "$1"));
  return out;
}
