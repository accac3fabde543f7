// Runs the `terminal` tool's shell commands: bash in the workspace with a scrubbed
// environment, under bubblewrap when it works on this host (workspace read-write, the rest
// of / read-only, private /tmp, no network unless allowed). Invariants: a command never
// outlives its timeout, its cancellation or the app; output is capped as head + tail.
import { existsSync, statSync } from "node:fs";
import { sep } from "node:path";

export const DEFAULT_BWRAP_PATH = "/usr/bin/bwrap";

/** Whether commands run inside bubblewrap; when not, approvals are the only gate. */
export interface SandboxStatus {
  bubblewrap: boolean;
  bwrap_path: string | null;
  /** A sentence for the UI: what protects the host. */
  message: string;
}

const probes = new Map<string, Promise<SandboxStatus>>();

/**
 * Probe (once per bwrap path, cached: it is a fact about the host) whether bubblewrap can
 * build the sandbox `terminal` uses. A missing binary or a failed self-check (no user
 * namespaces, seccomp, nested containers) means commands run unsandboxed.
 */
export function sandboxStatus(
  bwrapPath: string | null = DEFAULT_BWRAP_PATH,
): Promise<SandboxStatus> {
  const key = bwrapPath ?? "";
  let probe = probes.get(key);
  if (!probe) {
    probe = probeBwrap(bwrapPath);
    probes.set(key, probe);
  }
  return probe;
}

async function probeBwrap(bwrapPath: string | null): Promise<SandboxStatus> {
  const off = (why: string): SandboxStatus => ({
    bubblewrap: false,
    bwrap_path: null,
    message: `Terminal commands run without a sandbox (${why}); approvals are the only gate.`,
  });
  if (!bwrapPath || !existsSync(bwrapPath)) return off(`bubblewrap not found at ${bwrapPath}`);
  try {
    const out = await new Deno.Command(bwrapPath, {
      args: [
        ...baseBwrapArgs(false),
        "--",
        "bash",
        "-c",
        "touch /tmp/.probe && test ! -w /usr && echo ok",
      ],
      clearEnv: true,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    if (out.success && text === "ok") {
      return {
        bubblewrap: true,
        bwrap_path: bwrapPath,
        message: "Terminal commands run in a bubblewrap sandbox: the workspace is writable, " +
          "the rest of the filesystem is read-only, and the network is off unless allowed.",
      };
    }
    const err = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
    return off(`bubblewrap self-check failed: ${err || `exit ${out.code}`}`);
  } catch (err) {
    return off(`bubblewrap could not start: ${(err as Error).message}`);
  }
}

function baseBwrapArgs(allowNetwork: boolean): string[] {
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--dir",
    "/tmp/home",
    ...(allowNetwork ? [] : ["--unshare-net"]),
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    "--new-session",
  ];
}

export interface CommandRequest {
  command: string;
  /** Workspace real path: bound read-write inside the sandbox. */
  workspace: string;
  /** Working directory (a real path inside the workspace). */
  cwd: string;
  timeoutMs: number;
  allowNetwork: boolean;
  signal?: AbortSignal;
}

export interface CommandResult {
  /** Combined stdout+stderr in arrival order, capped as head + marker + tail. */
  output: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  sandboxed: boolean;
  omittedBytes: number;
}

export interface CommandRunner {
  run(req: CommandRequest): Promise<CommandResult>;
  status(): Promise<SandboxStatus>;
  /** Kill every running command and remove the fallback home. */
  close(): Promise<void>;
}

export interface CommandRunnerOptions {
  /** null disables bubblewrap (tests of the unsandboxed path). */
  bwrapPath?: string | null;
  /** Bytes kept from the start and from the end of the output (default 20,000 each). */
  headBytes?: number;
  tailBytes?: number;
  /** Paths hidden from sandboxed commands (state dir, config file with API keys). */
  hiddenPaths?: string[];
  /** PATH/LANG/TERM values; only these, plus HOME, reach the command. */
  env?: { PATH?: string; LANG?: string; TERM?: string };
}

const encoder = new TextEncoder();

/**
 * Host control sockets stay connectable on a read-only bind (connect() ignores the read-only
 * flag), and talking to them is root on the host: they are masked inside the sandbox.
 */
const CONTROL_SOCKETS = [
  "/run/docker.sock",
  "/var/run/docker.sock",
  "/run/containerd/containerd.sock",
  "/run/podman/podman.sock",
  "/run/dbus/system_bus_socket",
  "/run/systemd/private",
];

/** Keeps the first `head` bytes and the last `tail` bytes of a stream, counting the rest. */
class OutputCapture {
  private headParts: Uint8Array[] = [];
  private headLen = 0;
  private tailParts: Uint8Array[] = [];
  private tailLen = 0;
  total = 0;
  constructor(private head: number, private tail: number) {}

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.headLen < this.head) {
      const take = Math.min(this.head - this.headLen, chunk.length);
      this.headParts.push(chunk.subarray(0, take));
      this.headLen += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    this.tailParts.push(chunk.slice());
    this.tailLen += chunk.length;
    while (this.tailLen - this.tailParts[0].length >= this.tail) {
      this.tailLen -= this.tailParts.shift()!.length;
    }
  }

  text(): { text: string; omitted: number } {
    const join = (parts: Uint8Array[], len: number) => {
      const out = new Uint8Array(len);
      let o = 0;
      for (const p of parts) {
        out.set(p, o);
        o += p.length;
      }
      return out;
    };
    const dec = new TextDecoder();
    const head = dec.decode(join(this.headParts, this.headLen));
    const shown = Math.min(this.tailLen, this.tail);
    const tailBytes = join(this.tailParts, this.tailLen).subarray(this.tailLen - shown);
    const omitted = this.total - this.headLen - shown;
    const tail = new TextDecoder().decode(tailBytes);
    if (omitted === 0) return { text: head + tail, omitted: 0 };
    return { text: `${head}\n… ${omitted} bytes omitted …\n${tail}`, omitted };
  }
}

/** Create the runner; the owner registers `close()` with app.onClose. */
export function createCommandRunner(opts: CommandRunnerOptions = {}): CommandRunner {
  const bwrapPath = opts.bwrapPath === undefined ? DEFAULT_BWRAP_PATH : opts.bwrapPath;
  const headBytes = opts.headBytes ?? 20_000;
  const tailBytes = opts.tailBytes ?? 20_000;
  const running = new Set<Deno.ChildProcess>();
  let fallbackHome: string | null = null;
  let closed = false;

  const killGroup = (child: Deno.ChildProcess, sig: Deno.Signal) => {
    try {
      Deno.kill(-child.pid, sig);
    } catch {
      try {
        child.kill(sig);
      } catch { /* already gone */ }
    }
  };

  const hiddenArgs = (workspace: string): string[] => {
    const args: string[] = [];
    for (const p of [...CONTROL_SOCKETS, ...(opts.hiddenPaths ?? [])]) {
      if (!p || workspace === p || workspace.startsWith(p + sep) || p.startsWith(workspace + sep)) {
        continue;
      }
      try {
        const st = statSync(p);
        if (st.isDirectory()) args.push("--tmpfs", p);
        else args.push("--ro-bind", "/dev/null", p);
      } catch { /* not there: nothing to hide */ }
    }
    return args;
  };

  return {
    status: () => sandboxStatus(bwrapPath),
    async run(req) {
      if (closed) throw new Error("The command runner is shut down");
      const status = await sandboxStatus(bwrapPath);
      const envBase = {
        PATH: opts.env?.PATH ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        LANG: opts.env?.LANG ?? "C.UTF-8",
        TERM: opts.env?.TERM ?? "dumb",
      };
      let cmd: Deno.Command;
      if (status.bubblewrap && status.bwrap_path) {
        cmd = new Deno.Command(status.bwrap_path, {
          args: [
            ...baseBwrapArgs(req.allowNetwork),
            ...hiddenArgs(req.workspace),
            "--bind",
            req.workspace,
            req.workspace,
            "--chdir",
            req.cwd,
            "--",
            "bash",
            "-c",
            req.command,
          ],
          clearEnv: true,
          env: { ...envBase, HOME: "/tmp/home" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          detached: true,
        });
      } else {
        fallbackHome ??= await Deno.makeTempDir({ prefix: "hermes-terminal-home-" });
        cmd = new Deno.Command("bash", {
          args: ["-c", req.command],
          cwd: req.cwd,
          clearEnv: true,
          env: { ...envBase, HOME: fallbackHome },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          detached: true,
        });
      }
      const child = cmd.spawn();
      running.add(child);
      const capture = new OutputCapture(headBytes, tailBytes);
      let timedOut = false;
      let cancelled = false;
      let killedAt: Promise<void> | null = null;
      const stop = () => {
        if (killedAt) return;
        killGroup(child, "SIGTERM");
        killedAt = new Promise((r) => {
          const t = setTimeout(() => {
            killGroup(child, "SIGKILL");
            r();
          }, 1000);
          child.status.then(() => {
            clearTimeout(t);
            killGroup(child, "SIGKILL");
            r();
          });
        });
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, req.timeoutMs);
      const onAbort = () => {
        cancelled = true;
        stop();
      };
      req.signal?.addEventListener("abort", onAbort, { once: true });
      if (req.signal?.aborted) onAbort();

      const streamReaders = [child.stdout.getReader(), child.stderr.getReader()];
      const readers = streamReaders.map(async (reader) => {
        try {
          while (true) {
            const { done, value } = await reader.read();
            if (done) break;
            capture.push(value);
          }
        } catch { /* cancelled */ }
      });
      const status2 = await child.status;
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onAbort);
      // Background processes that escaped the group may hold the pipes: stop waiting soon.
      const drained = Promise.all(readers);
      let grace: ReturnType<typeof setTimeout> | undefined;
      const late = await Promise.race([
        drained.then(() => false),
        new Promise<boolean>((r) => {
          grace = setTimeout(() => r(true), 2000);
        }),
      ]);
      clearTimeout(grace);
      if (late) {
        killGroup(child, "SIGKILL");
        await Promise.all(streamReaders.map((r) => r.cancel().catch(() => {})));
      }
      await drained;
      if (killedAt) await killedAt;
      running.delete(child);
      const { text, omitted } = capture.text();
      return {
        output: text,
        exitCode: status2.signal ? null : status2.code,
        signal: status2.signal ?? null,
        timedOut,
        cancelled,
        sandboxed: status.bubblewrap,
        omittedBytes: omitted,
      };
    },
    async close() {
      closed = true;
      for (const child of running) killGroup(child, "SIGKILL");
      await Promise.all([...running].map((c) => c.status.catch(() => {})));
      if (fallbackHome) await Deno.remove(fallbackHome, { recursive: true }).catch(() => {});
    },
  };
}

/** Exposed for tests of the head+tail cap. */
export function capOutput(text: string, head: number, tail: number): string {
  const c = new OutputCapture(head, tail);
  c.push(encoder.encode(text));
  return c.text().text;
}
