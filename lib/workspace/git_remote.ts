// fetch, pull and push from the Git panel, through the user's own credentials (their ssh agent,
// ~/.ssh, ~/.gitconfig and credential helper). The repository is data the agent may have written,
// and these commands run on the host with the network, so before git touches the remote:
// - the repo's own config must hold only keys on REPO_CONFIG_ALLOWED (no program, helper, proxy,
//   include, hook path, URL rewrite or worktree redirect can come from the repo);
// - the remote's URLs, as written and as git resolves them (URL rewrites, push URLs), must use a
//   network transport (https, http, ssh or scp-like, git://): never a local path or file://,
//   whose receive-pack/upload-pack would run on the host with the remote repository's own hooks
//   and config (which the agent can write), never `ext::`/`fd::`/`<helper>::` or an option;
// - the git directory must be the workspace's own (a `.git` file pointing elsewhere is refused);
// then git runs with REMOTE_HARDENED_CONFIG (no hooks, no fsmonitor, no signing, no submodule
// recursion, network transports only), no config file, no prompt, a timeout, and its failures
// become errors that say what to do.
import { ConflictError, ValidationError } from "../errors.ts";
import type { GitResult } from "./git_command.ts";
import { git, gitMessage, type GitTarget, locked, requireRepo } from "./git_panel.ts";
import { runGit } from "./git_command.ts";
import { isAbsolute, relative, resolve } from "node:path";

export type RemoteOp = "fetch" | "pull" | "push";

const REMOTE_TIMEOUT_MS = 120_000;

/**
 * Repo-config keys a remote operation accepts: identity, layout and plain remote/branch
 * bookkeeping. `<name>` parts are free; anything else in .git/config refuses the operation.
 */
const REPO_CONFIG_ALLOWED: readonly RegExp[] = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|quotepath|compression|loosecompression|checkstat|trustctime)$/,
  /^extensions\.objectformat$/,
  /^remote\.[^\n]+\.(url|pushurl|fetch|push|tagopt|prune|prunetags|mirror|skipdefaultupdate|skipfetchall)$/,
  /^branch\.[^\n]+\.(remote|pushremote|merge|rebase|description)$/,
  /^(user\.(name|email)|init\.defaultbranch|pull\.(rebase|ff)|push\.(default|autosetupremote|followtags)|fetch\.(prune|prunetags)|gc\.auto|index\.version|advice\.[a-z]+|color\.[a-z.]+)$/,
];

const NETWORK_SCHEMES = ["https", "http", "ssh", "git", "git+ssh", "ssh+git"];

/**
 * Why the console will not use a remote URL: "local" for anything git reaches on this machine
 * (a path, relative, `~`, file://), "unsafe" for a transport helper (`ext::`, `fd::`, any
 * `x::`), another scheme or an option-like value; null for a network URL. Mirrors git's own
 * rule (connect.c): a URL with `://` names its transport; otherwise a colon before any slash
 * makes it scp-like ssh (`[user@]host:path`), and anything else is a local path.
 */
export function remoteUrlProblem(url: string): "local" | "unsafe" | null {
  const u = url.trim();
  if (!u || u.startsWith("-") || /[\0\n\r]/.test(u)) return "unsafe";
  if (/^[A-Za-z0-9+.-]*::/.test(u)) return "unsafe"; // ext::, fd::, every <helper>:: form
  const scheme = u.match(/^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    if (name === "file") return "local";
    if (!NETWORK_SCHEMES.includes(name)) return "unsafe";
    // ssh://-oProxyCommand=… : git refuses it too; refuse before it is asked.
    return /^[^:]+:\/\/(?:[^@/]*@)?\[?-/.test(u) ? "unsafe" : null;
  }
  // Past a bracketed IPv6 host, `::` is a helper address in disguise: refused as before.
  if (u.replace(/\[[^\]]*\]/, "").includes("::")) return "unsafe";
  const colon = u.indexOf(":");
  const slash = u.indexOf("/");
  if (colon < 0 || (slash >= 0 && slash < colon)) return "local";
  // scp-like: [user@]host:path; the host part cannot start with "-".
  return /^(?:[A-Za-z0-9._~-]+@)?(?:[A-Za-z0-9._-]+|\[[A-Za-z0-9.:%_-]+\]):[^\0]+$/.test(u) &&
      !/^(?:[^@]*@)?-/.test(u)
    ? null
    : "unsafe";
}

/** A URL a remote may name: a network transport, never local, a helper (`x::`) or an option. */
export function isNetworkRemoteUrl(url: string): boolean {
  return remoteUrlProblem(url) === null;
}

/** The refusal of `url` (409): what is wrong with it and what to do instead. */
function refuseUrl(op: RemoteOp, remote: string, url: string): ConflictError {
  const shown = JSON.stringify(url.slice(0, 200));
  if (!url) {
    return new ConflictError(`Cannot ${op}: remote "${remote}" has no URL`, {
      code: "unsafe_remote",
    });
  }
  if (remoteUrlProblem(url) === "local") {
    return new ConflictError(
      `Cannot ${op}: remote "${remote}" is a local repository (${shown}). The console only ` +
        `reaches remotes over the network (https, ssh or git://): git on a local repository ` +
        `runs that repository's own hooks on this machine. Point "${remote}" at a network URL ` +
        `(git remote set-url ${remote} <url>), or run git ${op} in your own shell if you trust it.`,
      { code: "local_remote" },
    );
  }
  return new ConflictError(
    `Cannot ${op}: remote "${remote}" names a URL the console will not use (${shown}: a ` +
      `transport helper, an unknown scheme or a malformed address); use https, ssh or git://`,
    { code: "unsafe_remote" },
  );
}

function checkRemoteUrl(op: RemoteOp, remote: string, url: string): void {
  if (remoteUrlProblem(url) !== null) throw refuseUrl(op, remote, url);
}

/** The URLs git would use for `remote` (fetch or push), rewrites applied. */
async function resolvedUrls(t: GitTarget, remote: string, push: boolean): Promise<string[]> {
  const r = await runGit(["remote", "get-url", ...(push ? ["--push"] : []), "--all", remote], {
    ...t.run,
    cwd: t.workspace,
    workspace: t.workspace,
    credentials: t.credentials,
  });
  return r.ok ? r.stdout.split("\n").filter((l) => l.trim()) : [];
}

/** What in the repo's own config a remote operation refuses (the first offending key). */
export function unsafeRepoConfigKey(keys: readonly string[]): string | null {
  for (const key of keys) {
    const k = key.toLowerCase();
    if (!REPO_CONFIG_ALLOWED.some((re) => re.test(k))) return key;
  }
  return null;
}

/** The repo's local config as [key, value] pairs, read with git (which runs nothing to read). */
async function localConfig(t: GitTarget): Promise<Array<[string, string]>> {
  const r = await git(t, ["config", "--local", "--list", "-z"]);
  if (!r.ok) return [];
  return r.stdout.split("\0").filter(Boolean).map((entry) => {
    const nl = entry.indexOf("\n");
    return nl < 0 ? [entry, ""] : [entry.slice(0, nl), entry.slice(nl + 1)];
  });
}

/** The git directory must be this workspace's (or, for a sub-folder workspace, its repo's). */
async function checkGitDir(t: GitTarget): Promise<void> {
  const r = await git(t, ["rev-parse", "--absolute-git-dir", "--show-toplevel"]);
  const [gitDir, top] = r.stdout.trim().split("\n");
  const inside = (p: string, root: string) => {
    const rel = relative(root, p);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  };
  const ok = r.ok && gitDir && top && (
    inside(gitDir, t.workspace) ||
    (inside(t.workspace, top) && resolve(gitDir) === resolve(top, ".git"))
  );
  if (!ok) {
    throw new ConflictError(
      "Cannot reach the remote: this workspace's .git points outside it, so the console will " +
        "not run network git here. Run it in your own shell.",
      { code: "unsafe_repository" },
    );
  }
}

/** Why a remote command failed, as a code the panel knows and a sentence that says what to do. */
export function classifyRemoteFailure(op: RemoteOp, remote: string, r: GitResult): ConflictError {
  const said = gitMessage(r);
  const text = `${r.stderr}\n${r.stdout}`;
  if (r.timedOut) {
    return new ConflictError(`git ${op} "${remote}" took too long and was stopped`, {
      code: "remote_timeout",
    });
  }
  if (
    /could not read (Username|Password)|terminal prompts disabled|Authentication failed|Permission denied \((publickey|password)|Host key verification failed|HTTP Basic: Access denied|returned error: 40[13]/i
      .test(text)
  ) {
    return new ConflictError(
      `git ${op} "${remote}" needs credentials it does not have: add your SSH key to ssh-agent ` +
        `(or ~/.ssh) or set up a credential helper in ~/.gitconfig, then try again. git said: ${said}`,
      { code: "credentials_missing" },
    );
  }
  if (
    /Could not resolve host|Connection refused|Connection timed out|No route to host|unable to access|does not appear to be a git repository|Could not read from remote repository|not found/i
      .test(text)
  ) {
    return new ConflictError(`Cannot reach "${remote}": ${said}`, { code: "remote_unreachable" });
  }
  if (/\[rejected\]|non-fast-forward|fetch first|failed to push some refs/i.test(text)) {
    return new ConflictError(
      `The remote has commits you do not have: pull first, then push. git said: ${said}`,
      { code: "push_rejected" },
    );
  }
  if (/Not possible to fast-forward|diverg/i.test(text)) {
    return new ConflictError(
      `Your branch and "${remote}" have diverged: merge or rebase in your own shell. git said: ${said}`,
      { code: "pull_diverged" },
    );
  }
  return new ConflictError(`git ${op} failed: ${said}`, { code: "remote_failed" });
}

/**
 * Run `op` against `remoteName` (default: origin, else the first remote). Answers git's summary.
 */
export async function remoteOp(
  t: GitTarget,
  op: RemoteOp,
  remoteName?: string,
): Promise<{ ok: true; remote: string; url: string; branch: string | null; output: string }> {
  await requireRepo(t);
  return await locked(t, async () => {
    const listed = await git(t, ["remote"]);
    const remotes = listed.ok ? listed.stdout.split("\n").filter(Boolean) : [];
    if (!remotes.length) {
      throw new ConflictError(`Cannot ${op}: this repository has no remote`, { code: "no_remote" });
    }
    if (remoteName !== undefined && !remotes.includes(remoteName)) {
      throw new ValidationError(`Unknown remote "${remoteName.slice(0, 100)}"`, "remote");
    }
    const remote = remoteName ?? (remotes.includes("origin") ? "origin" : remotes[0]);
    if (!t.credentials) {
      throw new ConflictError(`Cannot ${op}: no credentials are configured for the console`, {
        code: "credentials_missing",
      });
    }
    await checkGitDir(t);
    const config = await localConfig(t);
    const bad = unsafeRepoConfigKey(config.map(([k]) => k));
    if (bad) {
      throw new ConflictError(
        `Cannot ${op}: the repository's own config sets "${bad}", which could make git run a ` +
          `program or send your credentials elsewhere. Remove it (git config --unset ${bad}) ` +
          `or run git ${op} in your own shell.`,
        { code: "unsafe_config", key: bad },
      );
    }
    const written = config.filter(([k]) =>
      k.toLowerCase() === `remote.${remote.toLowerCase()}.url` ||
      k.toLowerCase() === `remote.${remote.toLowerCase()}.pushurl`
    ).map(([, v]) => v);
    if (!written.length) throw refuseUrl(op, remote, "");
    for (const url of written) checkRemoteUrl(op, remote, url);
    // What git will really connect to, after the user's url.<base>.insteadOf/pushInsteadOf
    // rewrites and the remote's pushurl, asked of git under the very config the operation gets.
    const urls = await resolvedUrls(t, remote, op === "push");
    if (!urls.length) throw refuseUrl(op, remote, "");
    for (const url of urls) checkRemoteUrl(op, remote, url);
    const head = await git(t, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
    const branch = head.ok ? head.stdout.trim() : null;
    if (op !== "fetch" && !branch) {
      throw new ConflictError(`Cannot ${op} with a detached HEAD: switch to a branch first`, {
        code: "detached_head",
      });
    }
    const args = op === "fetch"
      ? ["fetch", "--prune", "--no-recurse-submodules", "--", remote]
      : op === "pull"
      ? [
        "pull",
        "--ff-only",
        "--no-rebase",
        "--no-edit",
        "--no-recurse-submodules",
        "--",
        remote,
        branch!,
      ]
      : [
        "push",
        "--porcelain",
        "--set-upstream",
        "--no-recurse-submodules",
        "--",
        remote,
        `HEAD:refs/heads/${branch}`,
      ];
    const r = await runGit(args, {
      ...t.run,
      cwd: t.workspace,
      workspace: t.workspace,
      timeoutMs: REMOTE_TIMEOUT_MS,
      credentials: t.credentials,
    });
    if (!r.ok) throw classifyRemoteFailure(op, remote, r);
    const output = `${r.stdout}\n${r.stderr}`.trim().split("\n")
      .filter((l) => l && !l.startsWith("hint:")).slice(-20).join("\n");
    return { ok: true, remote, url: urls[0], branch, output };
  });
}
