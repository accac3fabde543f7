// What the terminal sandbox can see of the host: an allowlist. The sandbox starts from an empty
// root and gets the system's read-only program and library trees, a curated /etc, its own /tmp,
// home, /dev, /proc and an empty /run, the paths the owner named in `sandbox.read_paths`, and the
// workspace. Nothing else of the host exists inside: not the owner's home, other workspaces, the
// state dir, the console's install, host sockets (/run, /var/run) or host daemons' files.
// Invariants: a name missing from these lists is not mounted; /etc entries that hold secrets
// (shadow, sudoers, ssh/, ssl/private, machine-id, registry credentials) are never listed; the
// owner's extra paths are read-only and mounted before the workspace, so the workspace stays
// writable even when it sits inside one of them.
import { isAbsolute, normalize } from "node:path";

/** Program and library trees, read-only. On merged-/usr hosts /bin, /lib… are links into /usr. */
export const SYSTEM_TREES = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * The /etc entries programs need: name resolution, TLS roots, the dynamic linker, locale and
 * time zone, Debian's alternatives links, shell and tool defaults. Not listed on purpose:
 * shadow/gshadow, sudoers, ssh/, ssl/private, machine-id, subuid/subgid, pam.d, security/,
 * npmrc/pip.conf/wgetrc (registry and proxy credentials live there), the host's daemons' configs
 * (postgresql/, mysql/, redis/…) and passwd/group, which the sandbox gets as its own (see
 * `sandboxPasswd`).
 */
export const ETC_ALLOWLIST = [
  "hosts",
  "hostname",
  "resolv.conf",
  "nsswitch.conf",
  "host.conf",
  "gai.conf",
  "networks",
  "protocols",
  "services",
  "ethertypes",
  "rpc",
  "ssl/certs",
  "ssl/openssl.cnf",
  "ca-certificates",
  "ca-certificates.conf",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "locale.alias",
  "localtime",
  "timezone",
  "alternatives",
  "mime.types",
  "magic",
  "magic.mime",
  "inputrc",
  "bash.bashrc",
  "profile",
  "profile.d",
  "shells",
  "terminfo",
  "gitconfig",
  "python3",
  "python3.11",
  "python3.12",
  "python3.13",
  "perl",
  "vim",
  "fonts",
  "java-17-openjdk",
  "java-21-openjdk",
  "os-release",
  "debian_version",
  "lsb-release",
  "mtab",
];

/** The sandbox's own /etc/passwd and /etc/group: its user and root, nobody of the host's. */
export const SANDBOX_PASSWD = "root:x:0:0:root:/root:/bin/sh\n" +
  "nobody:x:65534:65534:Hermes sandbox:/tmp/home:/bin/bash\n";
export const SANDBOX_GROUP = "root:x:0:\nnogroup:x:65534:\n";

/** Where the sandbox's passwd and group files are written once per process (see writeSandboxEtc). */
export interface SandboxEtc {
  passwd: string;
  group: string;
}

/** Write the sandbox's passwd/group into a fresh private directory (removed when Deno exits). */
export async function writeSandboxEtc(): Promise<SandboxEtc> {
  const dir = await Deno.makeTempDir({ prefix: "hermes-sandbox-etc-" });
  const passwd = `${dir}/passwd`;
  const group = `${dir}/group`;
  await Deno.writeTextFile(passwd, SANDBOX_PASSWD, { mode: 0o644 });
  await Deno.writeTextFile(group, SANDBOX_GROUP, { mode: 0o644 });
  await Deno.chmod(dir, 0o755);
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* already gone */ }
  });
  return { passwd, group };
}

/** A host path as the mount plan mounts it: a link re-created inside, or a read-only bind. */
async function mountExisting(path: string, allowLinkInto: readonly string[]): Promise<string[]> {
  let info;
  try {
    info = await Deno.lstat(path);
  } catch {
    return []; // not on this host
  }
  if (info.isSymlink) {
    // A link into a tree the sandbox has (e.g. /bin -> usr/bin) stays a link; any other link is
    // bound by its target's content so it never points at something the sandbox lacks.
    let real: string;
    try {
      real = await Deno.realPath(path);
    } catch {
      return []; // dangling
    }
    if (allowLinkInto.some((root) => real === root || real.startsWith(root + "/"))) {
      return ["--symlink", await Deno.readLink(path), path];
    }
    return ["--ro-bind", real, path];
  }
  return ["--ro-bind", path, path];
}

/**
 * bwrap arguments for the system trees and the curated /etc: a fact about the host, read once
 * when the sandbox is probed (asynchronously, off every command's path).
 */
export async function systemMounts(): Promise<string[]> {
  const trees = await Promise.all(SYSTEM_TREES.map((p) => mountExisting(p, ["/usr"])));
  const etc = await Promise.all(
    ETC_ALLOWLIST.map((name) => mountExisting(`/etc/${name}`, ["/usr", "/proc", "/etc"])),
  );
  return [...trees.flat(), ...etc.flat()];
}

/** The system mounts (from systemMounts) with the sandbox's own passwd and group over them. */
export function systemMountArgs(system: readonly string[], etc: SandboxEtc): string[] {
  return [
    ...system,
    "--ro-bind",
    etc.passwd,
    "/etc/passwd",
    "--ro-bind",
    etc.group,
    "/etc/group",
  ];
}

/**
 * The sandbox's private places: /dev (null, zero, random, tty, pts, shm), /proc of its own pid
 * namespace, /tmp with the home in it, an empty /run (so no host socket under /run or /var/run
 * exists inside) and a scratch /var/tmp.
 */
export const PRIVATE_MOUNTS = [
  "--dev",
  "/dev",
  "--tmpfs",
  "/dev/shm",
  "--proc",
  "/proc",
  "--tmpfs",
  "/tmp",
  "--dir",
  "/tmp/home",
  "--tmpfs",
  "/run",
  "--dir",
  "/var",
  "--symlink",
  "../run",
  "/var/run",
  "--tmpfs",
  "/var/tmp",
];

/** Paths that may never be named as extra read paths: they would undo the plan. */
const REFUSED_READ_PATHS = ["/", "/etc", "/run", "/var", "/var/run", "/proc", "/sys", "/dev"];

/**
 * The owner's extra read-only paths from config.yaml (`sandbox.read_paths`: a list of absolute
 * paths, e.g. a toolchain installed under /opt or ~/.pyenv). Relative paths, the root and the
 * host's /etc, /run, /proc, /sys and /dev are refused with a reason (the plan's curated versions
 * stand); a path that does not exist is skipped by the mount plan.
 */
export function sandboxReadPaths(file: Record<string, unknown>): {
  paths: string[];
  refused: string[];
} {
  const section = file.sandbox;
  const raw = section && typeof section === "object"
    ? (section as Record<string, unknown>).read_paths
    : undefined;
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : [];
  const paths: string[] = [];
  const refused: string[] = [];
  for (const item of list) {
    if (typeof item !== "string" || !item.trim()) continue;
    const p = normalize(item.trim()).replace(/\/+$/, "") || "/";
    if (!isAbsolute(p)) refused.push(`${item}: not an absolute path`);
    else if (REFUSED_READ_PATHS.includes(p)) {
      refused.push(`${item}: the sandbox keeps its own ${p}`);
    } else if (!paths.includes(p)) paths.push(p);
  }
  return { paths, refused };
}

/**
 * bwrap arguments binding the owner's extra read paths read-only. `--ro-bind-try` skips a path
 * that does not exist, so building a command's arguments touches no file (they are built for
 * every command, on the request path).
 */
export function readPathArgs(paths: readonly string[]): string[] {
  return paths.flatMap((p) => ["--ro-bind-try", p, p]);
}
