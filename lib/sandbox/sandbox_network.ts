// The network behind the terminal's per-session switch: slirp4netns plugged into the sandbox's
// own network namespace, with --disable-host-loopback. Invariants: the sandbox never shares the
// host's network namespace, so the console's loopback port is out of reach; slirp4netns exits
// with its command (or with us: its exit fd is our pipe).

/**
 * Inside the sandbox, wait until slirp4netns has configured tap0 (its default route appears in
 * /proc/net/route) before running the command; give up after ~5 s and run it offline.
 */
export const WAIT_FOR_NETWORK =
  'i=0; until grep -q "^tap0[[:space:]]00000000" /proc/net/route; do ' +
  'i=$((i+1)); if [ "$i" -gt 250 ]; then echo "hermes: the sandbox network did not come up" >&2; ' +
  'break; fi; sleep 0.02; done; exec bash -c "$1"';

/**
 * A pid inside the sandbox's network namespace, once slirp4netns may attach to it. With bwrap's
 * own namespace (root), that is bwrap's first child after it started the command: before, bwrap
 * is still configuring the namespace's loopback and must not race slirp4netns over netlink.
 * With the `unshare` wrapper, it is the spawned process itself once it left our namespace.
 */
export async function netnsPid(
  spawned: number,
  outer: boolean,
  signal: AbortSignal,
): Promise<number | null> {
  // Deno refuses /proc/<pid>/… to anything short of --allow-all, so a short shell (an allowed
  // program) watches the process tree and prints the pid once it stands in its own netns (and,
  // as bwrap's child, has started the command). /proc files report size 0: test their text.
  const script = 'own=$(readlink /proc/self/ns/net); i=0; while [ "$i" -lt 500 ]; do ' +
    'if [ "$2" = 1 ]; then p=$1; ' +
    'if [ -e "/proc/$p/ns/net" ] && [ "$(readlink /proc/$p/ns/net 2>/dev/null)" != "$own" ]; ' +
    'then echo "$p"; exit 0; fi; ' +
    'else p=$(cut -d" " -f1 "/proc/$1/task/$1/children" 2>/dev/null); ' +
    'if [ -n "$p" ] && [ "$(readlink /proc/$p/ns/net 2>/dev/null)" != "$own" ] && ' +
    '[ -n "$(cat "/proc/$p/task/$p/children" 2>/dev/null)" ]; then echo "$p"; exit 0; fi; fi; ' +
    "i=$((i+1)); sleep 0.01; done; exit 1";
  try {
    const out = await new Deno.Command("/bin/sh", {
      args: ["-c", script, "sh", String(spawned), outer ? "1" : "0"],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdout: "piped",
      stderr: "null",
      signal,
    }).output();
    const pid = Number(new TextDecoder().decode(out.stdout).trim());
    return out.success && pid > 0 ? pid : null;
  } catch {
    return null; // cancelled, or the shell could not start: the command runs offline
  }
}

/**
 * Plug slirp4netns into the sandbox's network namespace: outbound TCP/UDP through the host's
 * stack, but `--disable-host-loopback` refuses 10.0.2.2 → 127.0.0.1, and the namespace's own
 * 127.0.0.1 is not the host's, so the console's loopback port is out of reach. Its stdin is its
 * exit fd: when we close it (or die), slirp4netns exits.
 */
export function attachNetwork(
  slirpPath: string,
  pid: number,
  joinUserns: boolean,
): Deno.ChildProcess {
  const child = new Deno.Command(slirpPath, {
    args: [
      "--configure",
      "--mtu=65520",
      "--disable-host-loopback",
      "--exit-fd=0",
      "--netns-type=path",
      ...(joinUserns ? [`--userns-path=/proc/${pid}/ns/user`] : []),
      `/proc/${pid}/ns/net`,
      "tap0",
    ],
    clearEnv: true,
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  return child;
}

/** Close slirp4netns' exit fd and wait for it (SIGKILL after a second). */
export async function stopSlirp(slirp: Deno.ChildProcess): Promise<void> {
  await slirp.stdin.close().catch(() => {});
  const t = setTimeout(() => {
    try {
      slirp.kill("SIGKILL");
    } catch { /* gone */ }
  }, 1000);
  await slirp.status.catch(() => {});
  clearTimeout(t);
}
