// The child pids of a process, read from /proc through /bin/sh: Deno refuses /proc/<pid>/… to
// anything short of --allow-all, and the console runs with explicit permissions (/bin/sh is an
// allowed program). Used to kill a sandbox's pid-1 before bwrap itself. Invariant: never throws;
// a process that is gone (or a shell that cannot start) has no children.

export function procChildren(pid: number): number[] {
  if (!Number.isInteger(pid) || pid <= 0) return [];
  try {
    const out = new Deno.Command("/bin/sh", {
      args: ["-c", 'cat "/proc/$1/task/$1/children" 2>/dev/null', "sh", String(pid)],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    return new TextDecoder().decode(out.stdout).trim().split(/\s+/).map(Number).filter((n) =>
      n > 0
    );
  } catch {
    return [];
  }
}

/**
 * Send `sig` to each target (a pid, or -pgid for a process group). `Deno.kill` needs the
 * unrestricted --allow-run the console does not have (a child's own `.kill()` cannot reach a
 * group or a grandchild), so what it refuses goes through the shell's `kill` builtin instead.
 * Never throws: a process that is gone is simply not signalled.
 */
export function signalProcesses(targets: number[], sig: Deno.Signal): void {
  const refused: number[] = [];
  for (const t of targets) {
    if (!Number.isInteger(t) || t === 0 || t === -1) continue;
    try {
      Deno.kill(t, sig);
    } catch (err) {
      if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
        refused.push(t);
      }
    }
  }
  if (refused.length === 0) return;
  try {
    new Deno.Command("/bin/sh", {
      args: [
        "-c",
        's=$1; shift; for t in "$@"; do kill -s "$s" -- "$t" 2>/dev/null; done; exit 0',
        "sh",
        sig.replace(/^SIG/, ""),
        ...refused.map(String),
      ],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdout: "null",
      stderr: "null",
    }).outputSync();
  } catch { /* the shell could not start: nothing more to try */ }
}
