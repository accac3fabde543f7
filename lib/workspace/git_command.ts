// The one way the host runs git on a workspace (the panel's badge, later the Git panel). A repo
// is data written by the agent, so its config must never become code run on the host. Invariants:
// git runs inside the terminal's bubblewrap sandbox when the host has one (workspace read-only,
// no network, unprivileged, console files masked), always with an explicit minimal environment
// (no server secret), every config-driven program neutralised, a timeout and an output cap.
import { signalProcesses } from "../sandbox/proc_children.ts";
import { sandboxedCommand, type SandboxHandle } from "../sandbox/bwrap_sandbox.ts";
import { OutputCapture } from "../sandbox/command_runner.ts";
import { configEnv, userRemoteConfig } from "./git_user_config.ts";

export interface GitRunOptions {
  /** Working directory: a real path inside `workspace`. */
  cwd: string;
  /** Workspace real path: the only directory the sandboxed git can see as a bind (read-only). */
  workspace: string;
  /** The app's sandbox (AppContext.tools.commands); without one git runs on the host. */
  sandbox?: SandboxHandle | null;
  /** Kill git after this long (default 5 s). */
  timeoutMs?: number;
  /** Stdout kept (default 4 MiB); past it git is stopped and the result marked truncated. */
  maxBytes?: number;
  /** The git executable (default "git" on PATH). */
  git?: string;
  /** PATH for git (default a system PATH). */
  path?: string;
  /**
   * Bind the workspace read-write in the sandbox (the Git panel's stage/commit/checkout write
   * `.git` and the worktree). Every other guard stays; default read-only.
   */
  writable?: boolean;
  /**
   * fetch/pull/push through the user's own credentials (lib/workspace/git_remote.ts): git runs
   * on the host with the network, the user's HOME (~/.ssh, credential stores) and ssh agent,
   * only the credential/http/URL-rewrite keys of their ~/.gitconfig (lib/workspace/
   * git_user_config.ts) and REMOTE_HARDENED_CONFIG instead of HARDENED_CONFIG. Only after the
   * repo's own config passed that module's allowlist and its remote resolved to a network URL.
   */
  credentials?: { home: string; sshAuthSock?: string };
  /**
   * A host file git must read (the Git panel's hunk patch). The sandbox's mount plan shows no
   * host temp folder, so it is bound read-only at INPUT_INSIDE and arguments naming it are
   * rewritten to that path; unsandboxed, git reads it where it is.
   */
  inputFile?: string;
}

/** Where a sandboxed git sees `GitRunOptions.inputFile` (under its private /tmp). */
export const INPUT_INSIDE = "/tmp/hermes-git-input";

export interface GitResult {
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  sandboxed: boolean;
}

const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * The programs any git call must never take from the repo: hooks, fsmonitor, pager, editors,
 * askpass, external diff, signing, submodule recursion. Command-line config wins over the
 * repo's own, so each is pinned to nothing (or a program that does nothing).
 */
const NO_REPO_PROGRAMS: ReadonlyArray<readonly [string, string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["core.editor", "false"],
  ["sequence.editor", "false"],
  ["core.askPass", ""],
  ["core.untrackedCache", "false"],
  ["diff.external", ""],
  ["gpg.program", "false"],
  ["gpg.ssh.program", "false"],
  ["gpg.x509.program", "false"],
  ["submodule.recurse", "false"],
  ["status.submoduleSummary", "false"],
];

/**
 * Config overrides on every sandboxed call: no repo program, and no way off the machine either
 * (no ssh command, proxy, credential helper or transport at all).
 */
export const HARDENED_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ...NO_REPO_PROGRAMS,
  ["core.sshCommand", "false"],
  ["core.gitProxy", ""],
  ["core.alternateRefsCommand", ""],
  ["core.attributesFile", "/dev/null"],
  ["credential.helper", ""],
  ["protocol.allow", "never"],
];

/**
 * Remote operations keep every guard that does not stand between git and the user's own
 * credentials: no repo program, no signing, no submodule fetches, and network transports only.
 * A local transport (a path, file://) starts the remote repository's own receive-pack or
 * upload-pack on the host, which runs THAT repository's hooks with its config: nothing set here
 * reaches it (git clears GIT_CONFIG_PARAMETERS for a local repo), so file is refused outright,
 * as are ext, fd and every transport not named. credential.helper and core.sshCommand come from
 * the user's own config (lib/workspace/git_user_config.ts; the repo's own values are refused
 * before git runs: lib/workspace/git_remote.ts).
 */
export const REMOTE_HARDENED_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ...NO_REPO_PROGRAMS,
  ["core.alternateRefsCommand", ""],
  ["commit.gpgSign", "false"],
  ["protocol.allow", "never"],
  ["protocol.https.allow", "always"],
  ["protocol.http.allow", "always"],
  ["protocol.ssh.allow", "always"],
  ["protocol.git.allow", "always"],
  ["protocol.file.allow", "never"],
  ["protocol.ext.allow", "never"],
  ["protocol.fd.allow", "never"],
  ["fetch.recurseSubmodules", "false"],
  ["push.recurseSubmodules", "no"],
];

/**
 * The remote operations' environment: the user's HOME (for ~/.ssh and credential stores) and ssh
 * agent, never a prompt, and no config file of any scope: `userConfig` (the keys
 * git_user_config.ts keeps from ~/.gitconfig) is the only config beyond the command line.
 */
export function remoteGitEnv(
  credentials: { home: string; sshAuthSock?: string },
  path = DEFAULT_PATH,
  userConfig: ReadonlyArray<readonly [string, string]> = [],
): Record<string, string> {
  return {
    PATH: path,
    HOME: credentials.home,
    LANG: "C.UTF-8",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    // No prompt can block a request: missing credentials fail fast with git's own message.
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_NO_LAZY_FETCH: "1",
    GIT_SSH_VARIANT: "ssh",
    ...(credentials.sshAuthSock ? { SSH_AUTH_SOCK: credentials.sshAuthSock } : {}),
    ...configEnv(userConfig),
  };
}

/**
 * The user's own config file (~/.gitconfig, $XDG_CONFIG_HOME/git/config, with their includes),
 * read with `git config`, which runs nothing, and cut down to the keys remote git keeps.
 */
async function readUserRemoteConfig(
  opts: GitRunOptions & { credentials: { home: string } },
): Promise<Array<[string, string]>> {
  const r = await spawnGit(
    [opts.git ?? "git", "--no-pager", "config", "--global", "--includes", "-z", "--list"],
    {
      PATH: opts.path ?? DEFAULT_PATH,
      HOME: opts.credentials.home,
      LANG: "C.UTF-8",
      LC_ALL: "C",
      GIT_CONFIG_NOSYSTEM: "1",
    },
    { ...opts, sandbox: null, timeoutMs: 5000, maxBytes: 1024 * 1024 },
    null,
  );
  return r.ok ? userRemoteConfig(r.stdout) : [];
}

/** The whole environment git gets: nothing of the server's, no user or system config. */
export function gitEnv(path = DEFAULT_PATH): Record<string, string> {
  return {
    PATH: path,
    HOME: "/dev/null",
    LANG: "C.UTF-8",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PROTOCOL_FROM_USER: "0",
    GIT_NO_LAZY_FETCH: "1",
    GIT_ASKPASS: "false",
    SSH_ASKPASS: "false",
  };
}

/** Global options before the subcommand: no pager, no optional locks, the hardened config. */
export function hardenedArgs(): string[] {
  const args = ["--no-pager", "--no-optional-locks"];
  for (const [k, v] of HARDENED_CONFIG) args.push("-c", `${k}=${v}`);
  return args;
}

const DRIVER_KEY =
  /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|required|textconv|command|driver)$/;

/**
 * Overrides for the filter, diff and merge drivers the repo's config defines (their names are
 * free-form, so they are read first with `git config`, which runs nothing). Filters become
 * no-ops, textconv/diff commands and merge drivers are emptied. Outside the sandbox this is
 * the only guard against a filter, so it is applied on every call; inside, it is a second one.
 */
export function driverOverrides(configNames: string[]): Array<[string, string]> {
  const out = new Map<string, string>();
  for (const key of configNames) {
    const m = key.match(DRIVER_KEY);
    if (!m) continue;
    const [, kind, name] = m;
    if (kind === "filter") {
      for (const f of ["clean", "smudge", "process"]) out.set(`filter.${name}.${f}`, "");
      out.set(`filter.${name}.required`, "false");
    } else if (kind === "diff") {
      out.set(`diff.${name}.textconv`, "");
      out.set(`diff.${name}.command`, "");
    } else out.set(`merge.${name}.driver`, "");
  }
  return [...out];
}

/** Run git with `args` (after the global options) per `opts`; never throws for git failures. */
export async function runGit(args: string[], opts: GitRunOptions): Promise<GitResult> {
  if (opts.credentials) {
    // Needs the network and the user's keys: on the host, detached from any terminal.
    const credentials = opts.credentials;
    const global = ["--no-pager", "--no-optional-locks"];
    for (const [k, v] of REMOTE_HARDENED_CONFIG) global.push("-c", `${k}=${v}`);
    return await spawnGit(
      [opts.git ?? "git", ...global, ...args],
      remoteGitEnv(credentials, opts.path, await readUserRemoteConfig({ ...opts, credentials })),
      { ...opts, sandbox: null },
      null,
    );
  }
  const status = opts.sandbox ? await opts.sandbox.status() : null;
  const env = gitEnv(opts.path);
  const once = (argv: string[], extraEnv: Record<string, string>) =>
    spawnGit(argv, { ...env, ...extraEnv }, opts, status);
  const git = opts.git ?? "git";
  const listed = await once([
    git,
    ...hardenedArgs(),
    "config",
    "-z",
    "--name-only",
    "--get-regexp",
    "^(filter|diff|merge)\\.",
  ], {});
  const names = listed.ok ? listed.stdout.split("\0").map((s) => s.trim()).filter(Boolean) : [];
  return await once([git, ...hardenedArgs(), ...args], configEnv(driverOverrides(names)));
}

async function spawnGit(
  argv: string[],
  env: Record<string, string>,
  opts: GitRunOptions,
  status: Awaited<ReturnType<SandboxHandle["status"]>> | null,
): Promise<GitResult> {
  const maxBytes = opts.maxBytes ?? 4 * 1024 * 1024;
  const input = opts.inputFile;
  const sandboxed = status && opts.sandbox
    ? sandboxedCommand(status, {
      argv: input ? argv.map((a) => a === input ? INPUT_INSIDE : a) : argv,
      roBinds: input ? [[input, INPUT_INSIDE]] : undefined,
      workspace: opts.workspace,
      cwd: opts.cwd,
      writable: opts.writable === true,
      hiddenPaths: opts.sandbox.hiddenPaths,
      readPaths: opts.sandbox.readPaths,
      env,
    })
    : null;
  let child: Deno.ChildProcess;
  try {
    child = sandboxed ? sandboxed.spawn() : new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: opts.cwd,
      clearEnv: true,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (err) {
    return {
      ok: false,
      code: null,
      stdout: "",
      stderr: (err as Error).message,
      timedOut: false,
      truncated: false,
      sandboxed: sandboxed !== null,
    };
  }
  const kill = () => {
    signalProcesses([-child.pid], "SIGKILL");
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  };
  let timedOut = false;
  let truncated = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, opts.timeoutMs ?? 5000);
  const out: Uint8Array[] = [];
  let outLen = 0;
  const err = new OutputCapture(8_192, 8_192);
  const readOut = (async () => {
    for await (const chunk of child.stdout) {
      if (truncated) continue;
      if (outLen + chunk.length > maxBytes) {
        out.push(chunk.subarray(0, maxBytes - outLen));
        outLen = maxBytes;
        truncated = true;
        kill();
        continue;
      }
      out.push(chunk);
      outLen += chunk.length;
    }
  })().catch(() => {});
  const readErr = (async () => {
    for await (const chunk of child.stderr) err.push(chunk);
  })().catch(() => {});
  const st = await child.status;
  clearTimeout(timer);
  await Promise.all([readOut, readErr]);
  const bytes = new Uint8Array(outLen);
  let o = 0;
  for (const c of out) {
    bytes.set(c, o);
    o += c.length;
  }
  return {
    ok: st.success && !timedOut && !truncated,
    code: st.signal ? null : st.code,
    stdout: new TextDecoder().decode(bytes),
    stderr: err.text().text,
    timedOut,
    truncated,
    sandboxed: sandboxed !== null,
  };
}
