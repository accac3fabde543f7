// One interactive shell on a real PTY inside the agent's sandbox: bwrap (lib/sandbox) runs
// util-linux `script`, which allocates the PTY in the sandbox's own devpts and runs `bash -i` on
// it; resizes travel over a FIFO bound read-only into the sandbox and are applied with `stty`.
// Invariants: never runs outside bubblewrap; the environment is explicit and minimal; the
// network follows the session's switch (slirp4netns, no host loopback); kill() ends the group.
import { procChildren, signalProcesses } from "../sandbox/proc_children.ts";
import { join } from "node:path";
import { isRoot, type SandboxStatus, spawnInteractive } from "../sandbox/bwrap_sandbox.ts";
import {
  attachNetwork,
  netnsPid,
  stopSlirp,
  WAIT_FOR_NETWORK,
} from "../sandbox/sandbox_network.ts";
import { ConflictError } from "../errors.ts";

/** Clamp a terminal size to what a person's screen can show (and `stty` accepts). */
export function clampSize(rows: unknown, cols: unknown): { rows: number; cols: number } {
  const n = (v: unknown, d: number, lo: number, hi: number) => {
    const x = typeof v === "number" && Number.isFinite(v) ? Math.round(v) : d;
    return Math.max(lo, Math.min(hi, x));
  };
  return { rows: n(rows, 24, 4, 200), cols: n(cols, 80, 10, 500) };
}

export interface PtyShellSpec {
  status: SandboxStatus;
  workspace: string;
  cwd: string;
  hiddenPaths: readonly string[];
  /** The owner's extra read-only paths (config.yaml `sandbox.read_paths`). */
  readPaths?: readonly string[];
  allowNetwork: boolean;
  rows: number;
  cols: number;
  /** A private (0700) directory of ours for this shell: the resize FIFO, seccomp file, resolv. */
  dir: string;
  env: { PATH: string; LANG: string };
}

export interface PtyShell {
  /** Bytes from the PTY (the shell's screen). */
  readonly output: ReadableStream<Uint8Array>;
  /** Resolves with the exit code once the sandbox is gone. */
  readonly exited: Promise<number>;
  write(data: Uint8Array): Promise<void>;
  resize(rows: number, cols: number): void;
  kill(): Promise<void>;
}

const CTL_DEST = "/tmp/.hermes-tty";

/**
 * Inside the sandbox: a background loop applies "rows cols" lines from the FIFO to the PTY
 * (the sandbox's first pty is /dev/pts/0: its devpts is private), then `script` runs the shell.
 * $1 = rows, $2 = cols (integers we clamped), so the strings below never carry user input.
 */
const INSIDE = `( while read -r r c; do
    stty -F /dev/pts/0 rows "$r" cols "$c" 2>/dev/null || { sleep 0.2; stty -F /dev/pts/0 rows "$r" cols "$c" 2>/dev/null; }
  done < ${CTL_DEST}/resize ) &
exec script -q -f -e -c "stty rows $1 cols $2 2>/dev/null; exec bash -i" /dev/null`;

/** Start the shell; throws ConflictError when this host cannot build the sandbox. */
export async function startPtyShell(spec: PtyShellSpec): Promise<PtyShell> {
  const { status } = spec;
  if (!status.bubblewrap) {
    throw new ConflictError(
      "The terminal needs the bubblewrap sandbox, which this host cannot build: " + status.message,
    );
  }
  const ctl = join(spec.dir, "ctl");
  await Deno.mkdir(ctl, { mode: 0o700 });
  const fifo = join(ctl, "resize");
  // Through bash: the console may run `bash` (deno.json --allow-run), not `mkfifo` directly.
  const mk = await new Deno.Command("bash", {
    args: ["-c", 'exec mkfifo -m 600 -- "$1"', "hermes-mkfifo", fifo],
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
  }).output();
  if (!mk.success) throw new Error(`mkfifo failed: ${new TextDecoder().decode(mk.stderr)}`);
  // Read+write: opening never blocks, and writes never fail while the sandbox reads later.
  const ctlFile = await Deno.open(fifo, { read: true, write: true });
  const network = spec.allowNetwork && status.network_isolation && status.slirp_path
    ? status.slirp_path
    : null;
  const outerNet = !!network && !isRoot();
  let resolvConf: string | undefined;
  if (network) {
    resolvConf = join(spec.dir, "resolv.conf");
    await Deno.writeTextFile(resolvConf, "nameserver 10.0.2.3\n");
  }
  const inner = ["bash", "-c", INSIDE, "hermes-tty", String(spec.rows), String(spec.cols)];
  const child = spawnInteractive(status, {
    argv: network
      ? ["bash", "-c", WAIT_FOR_NETWORK, "hermes-net", inner.map(shellQuote).join(" ")]
      : inner,
    workspace: spec.workspace,
    cwd: spec.cwd,
    writable: true,
    hiddenPaths: spec.hiddenPaths,
    readPaths: spec.readPaths,
    env: {
      PATH: spec.env.PATH,
      LANG: spec.env.LANG,
      TERM: "xterm-256color",
      COLORTERM: "truecolor",
      SHELL: "/bin/bash",
    },
    resolvConf,
    outerNet,
    roBinds: [[ctl, CTL_DEST]],
  }, join(spec.dir, "seccomp.bpf"));
  if (!child) {
    ctlFile.close();
    throw new ConflictError("The terminal sandbox is unavailable on this host");
  }
  let slirp: Deno.ChildProcess | null = null;
  const netDone = new AbortController();
  const attaching = network
    ? netnsPid(child.pid, outerNet, netDone.signal).then((pid) => {
      if (pid && !netDone.signal.aborted) slirp = attachNetwork(network, pid, outerNet);
    }).catch(() => {})
    : Promise.resolve();

  // stderr carries only bwrap's own complaints: fold them into the screen.
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const merge = async () => {
    const w = writable.getWriter();
    const pump = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
      try {
        while (true) {
          const { done, value } = await reader.read();
          if (done) break;
          await w.write(value);
        }
      } catch { /* killed */ }
    };
    await Promise.all(readers.map(pump));
    await w.close().catch(() => {});
  };
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const merged = merge();
  const stdin = child.stdin.getWriter();
  let killed = false;
  /**
   * End the sandbox for certain. Killing bwrap alone is not enough: bwrap's --die-with-parent
   * is set up by its child after clone(), so a bwrap killed early can leave the sandbox running
   * (seen in tests). So: freeze bwrap (no new child), SIGKILL its children — the first is pid 1
   * of the sandbox's pid namespace, whose death takes every process in it — then bwrap.
   */
  const killSandbox = () => {
    const pid = child.pid;
    signalProcesses([pid], "SIGSTOP");
    signalProcesses([...procChildren(pid), -pid, pid], "SIGKILL");
  };
  const exited = child.status.then(async (s) => {
    // Nothing outlives the sandbox's pid namespace, but never hang on a pipe someone kept.
    const drain = setTimeout(() => readers.forEach((r) => r.cancel().catch(() => {})), 2000);
    merged.finally(() => clearTimeout(drain));
    netDone.abort();
    await attaching;
    if (slirp) await stopSlirp(slirp);
    try {
      ctlFile.close();
    } catch { /* closed */ }
    await stdin.close().catch(() => {});
    return s.code;
  });
  const enc = new TextEncoder();
  return {
    output: readable,
    exited,
    async write(data) {
      if (killed) return;
      await stdin.write(data);
    },
    resize(rows, cols) {
      if (killed) return;
      const size = clampSize(rows, cols);
      ctlFile.write(enc.encode(`${size.rows} ${size.cols}\n`)).catch(() => {});
    },
    async kill() {
      if (!killed) {
        killed = true;
        killSandbox();
      }
      await exited;
    },
  };
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
