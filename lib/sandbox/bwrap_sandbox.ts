// The terminal's sandbox as this host can build it: bubblewrap with an unprivileged uid in a user
// namespace, no capabilities, the seccomp filter of seccomp.ts, an empty root holding only what
// mount_plan.ts allows (system trees read-only, a curated /etc, private /tmp, /run, /proc), the
// workspace bound read-write (or read-only for git), protected paths masked after it, private IPC,
// UTS and network namespace. Invariants: probed once per host and cached; every spawn gets an
// explicit environment; a protected path inside the workspace is never uncovered by its bind.
import { existsSync, realpathSync, statSync } from "node:fs";
import { sep } from "node:path";
import { seccompFilter } from "./seccomp.ts";
import {
  PRIVATE_MOUNTS,
  readPathArgs,
  type SandboxEtc,
  systemMountArgs,
  systemMounts,
  writeSandboxEtc,
} from "./mount_plan.ts";

export const DEFAULT_BWRAP_PATH = "/usr/bin/bwrap";
export const DEFAULT_SLIRP_PATH = "/usr/bin/slirp4netns";
/** The uid/gid commands run as inside the sandbox's user namespace ("nobody"). */
export const SANDBOX_UID = 65534;

/** What protects the host from the agent's commands; shown in the composer and System panel. */
export interface SandboxStatus {
  /** Commands run inside bubblewrap; when not, approvals are the only gate. */
  bubblewrap: boolean;
  bwrap_path: string | null;
  /** Inside, commands run as uid 65534 in a user namespace (no capabilities, no new userns). */
  unprivileged: boolean;
  /** A seccomp filter refuses mount, namespaces, ptrace, keyrings, bpf… (lib/sandbox/seccomp.ts). */
  seccomp: boolean;
  /** The network switch is backed by slirp4netns: a private network without host loopback. */
  network_isolation: boolean;
  slirp_path: string | null;
  /** A sentence for the UI: what protects the host. */
  message: string;
  /** Set when protection is weaker than it looks (the console runs as root): log and UI say so. */
  warning: string | null;
  /** Who commands run as, and why the owner's files are out of reach (System panel). */
  uid_model: string | null;
  /** What of the host the sandbox sees: the allowlist mount plan in one sentence. */
  sees: string | null;
}

/** How the sandbox is built on this host (settled by the probe). */
interface SandboxMode {
  userns: boolean;
  filter: Uint8Array | null;
  root: boolean;
  /** The sandbox's own passwd/group files. */
  etc: SandboxEtc;
  /** The system trees and curated /etc as bwrap arguments (mount_plan.ts systemMounts). */
  system: string[];
}

interface Probe {
  status: SandboxStatus;
  mode: SandboxMode | null;
}

const probes = new Map<string, Promise<Probe>>();
/** The mode behind each probed status object (sandboxedCommand() needs it). */
const modes = new WeakMap<SandboxStatus, SandboxMode>();

/**
 * Probe (once per bwrap/slirp path, cached: it is a fact about the host) whether bubblewrap can
 * build the sandbox `terminal` uses: first with a user namespace, then — as root, where bwrap
 * can still drop every capability — without one. A missing binary or a failed self-check means
 * commands run unsandboxed.
 */
export async function sandboxStatus(
  bwrapPath: string | null = DEFAULT_BWRAP_PATH,
  slirpPath: string | null = DEFAULT_SLIRP_PATH,
): Promise<SandboxStatus> {
  const key = `${bwrapPath ?? ""}\0${slirpPath ?? ""}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = probeBwrap(bwrapPath, slirpPath).then((p) => {
      if (p.mode) modes.set(p.status, p.mode);
      return p;
    });
    probes.set(key, probe);
  }
  return (await probe).status;
}

/** Whether the console runs as root (then bwrap itself can drop capabilities). */
export function isRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

async function probeBwrap(bwrapPath: string | null, slirpPath: string | null): Promise<Probe> {
  const root = isRoot();
  const off = (why: string): Probe => ({ status: offStatus(why), mode: null });
  const offStatus = (why: string): SandboxStatus => ({
    bubblewrap: false,
    bwrap_path: null,
    unprivileged: false,
    seccomp: false,
    network_isolation: false,
    slirp_path: null,
    message: `Terminal commands run without a sandbox (${why}); approvals are the only gate.`,
    warning: root
      ? `The console runs as root and terminal commands run without a sandbox (${why}): ` +
        "the agent's commands run as root on the host."
      : null,
    uid_model: null,
    sees: null,
  });
  if (!bwrapPath || !existsSync(bwrapPath)) return off(`bubblewrap not found at ${bwrapPath}`);
  const filter = seccompFilter();
  let firstError = "";
  let etc: SandboxEtc;
  try {
    etc = await writeSandboxEtc();
  } catch (err) {
    return off(`cannot write the sandbox's /etc/passwd: ${(err as Error).message}`);
  }
  const system = await systemMounts();
  // Strongest first; a kernel without seccomp filters still gets the namespaces.
  const candidates: SandboxMode[] = [];
  for (const userns of root ? [true, false] : [true]) {
    candidates.push({ userns, filter, root, etc, system });
    if (filter) candidates.push({ userns, filter: null, root, etc, system });
  }
  for (const mode of candidates) {
    const { userns } = mode;
    try {
      const workspace = await Deno.makeTempDir({ prefix: "hermes-sandbox-probe-" });
      try {
        const out = await spawnSandboxed(bwrapPath, mode, {
          argv: ["bash", "-c", "touch /tmp/.probe && touch ./w && test ! -w /usr && id -u"],
          workspace,
          cwd: workspace,
          writable: true,
          hiddenPaths: [],
          env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
        }).output();
        const text = new TextDecoder().decode(out.stdout).trim();
        const uidOk = userns ? text === String(SANDBOX_UID) : /^\d+$/.test(text);
        if (out.success && uidOk) return { status: onStatus(bwrapPath, slirpPath, mode), mode };
        const err = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
        firstError ||= err || `exit ${out.code}`;
      } finally {
        await Deno.remove(workspace, { recursive: true }).catch(() => {});
      }
    } catch (err) {
      firstError ||= (err as Error).message;
    }
  }
  return off(`bubblewrap self-check failed: ${firstError}`);
}

function onStatus(bwrapPath: string, slirpPath: string | null, mode: SandboxMode): SandboxStatus {
  // Not root: bwrap's own network namespace belongs to a user namespace slirp4netns cannot join,
  // so `unshare` makes the namespaces first (see OUTER_NET).
  const slirp = slirpPath && existsSync(slirpPath) && (mode.root || existsSync(UNSHARE_PATH))
    ? slirpPath
    : null;
  const who = mode.userns
    ? "as an unprivileged user with no capabilities"
    : "as root without capabilities (no user namespaces on this host)";
  const net = slirp
    ? "the network is off unless allowed, and even then cannot reach this machine's loopback"
    : "the network is off (the per-session network switch needs slirp4netns, not installed)";
  return {
    bubblewrap: true,
    bwrap_path: bwrapPath,
    unprivileged: mode.userns,
    seccomp: mode.filter !== null,
    network_isolation: slirp !== null,
    slirp_path: slirp,
    message: `Terminal commands run in a bubblewrap sandbox ${who}` +
      (mode.filter ? " and a syscall filter" : "") +
      ": the workspace is writable, the system's programs and libraries are read-only, and " +
      `nothing else of this machine is there; ${net}.`,
    warning: mode.userns ? null : "The console runs as root and this host has no user " +
      "namespaces: sandboxed commands run as root (without capabilities).",
    uid_model: mode.userns
      ? `uid ${SANDBOX_UID} ("nobody") in a user namespace with no capabilities. It maps to ` +
        "the console's own uid outside, so the owner's files are kept out by the mount plan: " +
        "nothing the owner owns outside the workspace is mounted."
      : "root without capabilities (this host has no user namespaces); the mount plan keeps " +
        "every host file outside the workspace and the system trees out of reach.",
    sees: "An allowlist: /usr (and /bin, /lib… links), a curated /etc (no shadow, sudoers, " +
      "ssh or registry credentials), its own /tmp, home, /dev, /proc and an empty /run, the " +
      "read-only paths named in sandbox.read_paths, and this session's workspace.",
  };
}

/** One sandboxed process: what it runs and what it sees. */
export interface SandboxSpec {
  argv: string[];
  /** Workspace real path: bound read-write (or read-only) at the same path. */
  workspace: string;
  /** Working directory (a real path inside the workspace). */
  cwd: string;
  writable: boolean;
  /** Paths masked inside (state dir, config file…), applied after the workspace bind. */
  hiddenPaths: readonly string[];
  /** The whole environment of the command (HOME is set to /tmp/home). */
  env: Record<string, string>;
  /** A resolv.conf bound over /etc/resolv.conf (the slirp4netns resolver). */
  resolvConf?: string;
  /**
   * Run bwrap inside a user + network namespace made by `unshare` (OUTER_NET) instead of its
   * own --unshare-net: the non-root way to give slirp4netns a namespace it may join.
   */
  outerNet?: boolean;
  /** Host paths bound read-only at a path under the sandbox's private /tmp (source, dest). */
  roBinds?: ReadonlyArray<readonly [string, string]>;
  /** The owner's extra read-only paths (config.yaml `sandbox.read_paths`), same path inside. */
  readPaths?: readonly string[];
}

export const UNSHARE_PATH = "/usr/bin/unshare";
/** `unshare` before bwrap: a fresh user namespace (we map to its root) owning a fresh netns. */
const OUTER_NET = [UNSHARE_PATH, "--user", "--map-root-user", "--net", "--"];

const within = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/** `path` and its real path (when it exists and differs): a mask must cover both spellings. */
function spellings(path: string): string[] {
  try {
    const real = realpathSync(path);
    return real === path ? [path] : [path, real];
  } catch {
    return [path];
  }
}

/**
 * Mount arguments masking `hidden` paths that the mount plan would otherwise show: those inside
 * the workspace, an extra read path or /usr (a path elsewhere does not exist inside at all). A
 * path that holds the workspace is masked before the workspace is bound (so the workspace
 * reappears inside the empty tmpfs); every other path — notably a state dir or config.yaml
 * INSIDE the workspace — is masked after it, so the read-write bind can never uncover it.
 */
function maskArgs(
  workspace: string,
  hidden: readonly string[],
  readPaths: readonly string[],
): { before: string[]; after: string[] } {
  const before: string[] = [];
  const after: string[] = [];
  const seen = new Set<string>();
  const shown = ["/usr", workspace, ...readPaths];
  for (const p of hidden.flatMap(spellings)) {
    if (!p || p === "/" || seen.has(p)) continue;
    seen.add(p);
    if (!shown.some((root) => within(p, root) || within(root, p))) continue;
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      continue; // not there: nothing to hide
    }
    const args = isDir ? ["--tmpfs", p] : ["--ro-bind", "/dev/null", p];
    if (within(workspace, p) && workspace !== p) before.push(...args);
    else after.push(...args);
  }
  return { before, after };
}

function bwrapArgs(mode: SandboxMode, spec: SandboxSpec): string[] {
  const readPaths = spec.readPaths ?? [];
  const masks = maskArgs(spec.workspace, spec.hiddenPaths, readPaths);
  return [
    // An empty root, then only what the mount plan allows (lib/sandbox/mount_plan.ts).
    ...systemMountArgs(mode.system, mode.etc),
    ...PRIVATE_MOUNTS,
    // Always a private network namespace: with the switch on, slirp4netns plugs one in. It
    // also keeps the host's abstract Unix sockets out of reach (they belong to a netns).
    ...(spec.outerNet ? [] : ["--unshare-net"]),
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(mode.userns
      ? [
        "--unshare-user",
        "--disable-userns",
        "--uid",
        String(SANDBOX_UID),
        "--gid",
        String(SANDBOX_UID),
      ]
      : []),
    ...(mode.root || mode.userns ? ["--cap-drop", "ALL"] : []),
    "--die-with-parent",
    "--new-session",
    ...(mode.filter ? ["--seccomp", "3"] : []),
    ...(spec.resolvConf ? ["--ro-bind", spec.resolvConf, "/etc/resolv.conf"] : []),
    ...readPathArgs(readPaths),
    ...masks.before,
    spec.writable ? "--bind" : "--ro-bind",
    spec.workspace,
    spec.workspace,
    ...masks.after,
    ...(spec.roBinds ?? []).flatMap(([src, dest]) => {
      if (!dest.startsWith("/tmp/")) throw new Error(`roBinds go under /tmp, not ${dest}`);
      return ["--ro-bind", src, dest];
    }),
    // The root itself (bwrap's tmpfs holding the mount points) becomes read-only last.
    "--remount-ro",
    "/",
    "--chdir",
    spec.cwd,
    "--",
    ...spec.argv,
  ];
}

/** A spawned sandbox; `output()` collects everything, `spawn()` streams. */
interface SandboxedCommand {
  spawn(): Deno.ChildProcess;
  output(): Promise<Deno.CommandOutput>;
}

/**
 * Build the command running `spec` under bwrap in `mode`. The seccomp program reaches bwrap on
 * fd 3: a tiny `sh` moves our stdin pipe there (Deno cannot pass extra fds) and gives the
 * sandbox /dev/null as stdin; we write the program and close the pipe right after spawning.
 */
function spawnSandboxed(
  bwrapPath: string,
  mode: SandboxMode,
  spec: SandboxSpec,
): SandboxedCommand {
  const args = bwrapArgs(mode, spec);
  const env = { ...spec.env, HOME: "/tmp/home" };
  const options = {
    clearEnv: true,
    env,
    stdout: "piped",
    stderr: "piped",
    detached: true,
  } as const;
  const argv = [...(spec.outerNet ? OUTER_NET : []), bwrapPath, ...args];
  const cmd = mode.filter
    ? new Deno.Command("/bin/sh", {
      ...options,
      args: ["-c", 'exec "$0" "$@" 3<&0 0</dev/null', ...argv],
      stdin: "piped",
    })
    : new Deno.Command(argv[0], { ...options, args: argv.slice(1), stdin: "null" });
  const feed = (child: Deno.ChildProcess) => {
    if (!mode.filter) return;
    const writer = child.stdin.getWriter();
    writer.write(mode.filter).then(() => writer.close()).catch(() => {});
  };
  return {
    spawn() {
      const child = cmd.spawn();
      feed(child);
      return child;
    },
    async output() {
      const child = cmd.spawn();
      feed(child);
      return await child.output();
    },
  };
}

/** The sandbox for host-side helpers (git): status and what to mask, from the app's runner. */
export interface SandboxHandle {
  status(): Promise<SandboxStatus>;
  /** Paths masked in every sandbox of this app (state dir, config file…). */
  readonly hiddenPaths: readonly string[];
  /** The owner's extra read-only paths (config.yaml `sandbox.read_paths`). */
  readonly readPaths?: readonly string[];
}

/**
 * Run `spec` inside the sandbox `status` describes (null when bubblewrap is unusable: then the
 * caller decides whether running on the host is acceptable).
 */
export function sandboxedCommand(
  status: SandboxStatus,
  spec: SandboxSpec,
): SandboxedCommand | null {
  const mode = modes.get(status);
  if (!status.bubblewrap || !status.bwrap_path || !mode) return null;
  return spawnSandboxed(status.bwrap_path, mode, spec);
}

/**
 * An interactive process in the sandbox `status` describes (null when bubblewrap is unusable):
 * stdin stays a pipe for the caller (a PTY helper reads it), so the seccomp program reaches
 * bwrap on fd 3 from a file (`filterFile`, written here, 0600) instead of from stdin.
 * Everything else — namespaces, uid, masks, explicit environment — is the same as `spawn`.
 */
export function spawnInteractive(
  status: SandboxStatus,
  spec: SandboxSpec,
  filterFile: string,
): Deno.ChildProcess | null {
  const mode = modes.get(status);
  if (!status.bubblewrap || !status.bwrap_path || !mode) return null;
  const argv = [
    ...(spec.outerNet ? OUTER_NET : []),
    status.bwrap_path,
    ...bwrapArgs(mode, spec),
  ];
  const options = {
    clearEnv: true,
    env: { ...spec.env, HOME: "/tmp/home" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  } as const;
  if (!mode.filter) {
    return new Deno.Command(argv[0], { ...options, args: argv.slice(1) }).spawn();
  }
  Deno.writeFileSync(filterFile, mode.filter, { mode: 0o600 });
  return new Deno.Command("bash", {
    ...options,
    args: ["-c", 'f="$1"; shift; exec "$@" 3<"$f"', "hermes-sandbox", filterFile, ...argv],
  }).spawn();
}
