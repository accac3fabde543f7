// Runs the `terminal` tool's shell commands: bash in the workspace with a scrubbed environment,
// inside the sandbox of bwrap_sandbox.ts when this host can build it (with the network switch on,
// slirp4netns gives it a network without the host's loopback: sandbox_network.ts), else directly.
// Invariants: a command never outlives its timeout, its cancellation or the app; output is capped
// as head + tail; no server secret is ever in a child's environment.
import { signalProcesses } from "./proc_children.ts";
import { join } from "node:path";
import {
  DEFAULT_BWRAP_PATH,
  DEFAULT_SLIRP_PATH,
  isRoot,
  sandboxedCommand,
  type SandboxHandle,
  type SandboxStatus,
  sandboxStatus,
} from "./bwrap_sandbox.ts";
import { attachNetwork, netnsPid, stopSlirp, WAIT_FOR_NETWORK } from "./sandbox_network.ts";

export {
  DEFAULT_BWRAP_PATH,
  DEFAULT_SLIRP_PATH,
  SANDBOX_UID,
  sandboxedCommand,
  type SandboxHandle,
  type SandboxStatus,
  sandboxStatus,
} from "./bwrap_sandbox.ts";

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
  /** The network was asked for but this host cannot give it safely (no slirp4netns). */
  networkUnavailable: boolean;
  omittedBytes: number;
}

export interface CommandRunner extends SandboxHandle {
  run(req: CommandRequest): Promise<CommandResult>;
  status(): Promise<SandboxStatus>;
  /** Kill every running command and remove the fallback home. */
  close(): Promise<void>;
}

export interface CommandRunnerOptions {
  /** null disables bubblewrap (tests of the unsandboxed path). */
  bwrapPath?: string | null;
  /** slirp4netns for the network switch; null keeps sandboxed commands offline. */
  slirpPath?: string | null;
  /** Bytes kept from the start and from the end of the output (default 20,000 each). */
  headBytes?: number;
  tailBytes?: number;
  /** Paths hidden from sandboxed commands (state dir, config file with API keys). */
  hiddenPaths?: string[];
  /** The owner's extra read-only paths (config.yaml `sandbox.read_paths`, lib/sandbox/mount_plan.ts). */
  readPaths?: string[];
  /** PATH/LANG/TERM values; only these, plus HOME, reach the command. */
  env?: { PATH?: string; LANG?: string; TERM?: string };
}

const encoder = new TextEncoder();

/** Keeps the first `head` bytes and the last `tail` bytes of a stream, counting the rest. */
export class OutputCapture {
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
  const slirpPath = opts.slirpPath === undefined ? DEFAULT_SLIRP_PATH : opts.slirpPath;
  const headBytes = opts.headBytes ?? 20_000;
  const tailBytes = opts.tailBytes ?? 20_000;
  const hiddenPaths = [...(opts.hiddenPaths ?? [])];
  const readPaths = [...(opts.readPaths ?? [])];
  const running = new Set<Deno.ChildProcess>();
  let scratch: string | null = null;
  let closed = false;
  const scratchDir = async () => {
    if (!scratch) {
      scratch = await Deno.makeTempDir({ prefix: "hermes-terminal-" });
      await Deno.mkdir(join(scratch, "home"));
      // The slirp4netns resolver: the host's may sit on a loopback address the sandbox lacks.
      await Deno.writeTextFile(join(scratch, "resolv.conf"), "nameserver 10.0.2.3\n");
    }
    return scratch;
  };

  const killGroup = (child: Deno.ChildProcess, sig: Deno.Signal) => {
    // The whole group (the sandbox and what it started), then the child itself for certain.
    signalProcesses([-child.pid], sig);
    try {
      child.kill(sig);
    } catch { /* already gone */ }
  };

  const runner: CommandRunner = {
    hiddenPaths,
    readPaths,
    status: () => sandboxStatus(bwrapPath, slirpPath),
    async run(req) {
      if (closed) throw new Error("The command runner is shut down");
      const status = await sandboxStatus(bwrapPath, slirpPath);
      const envBase = {
        PATH: opts.env?.PATH ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        LANG: opts.env?.LANG ?? "C.UTF-8",
        TERM: opts.env?.TERM ?? "dumb",
      };
      const dir = await scratchDir();
      const network = req.allowNetwork && status.network_isolation && status.slirp_path;
      const outerNet = !!network && !isRoot();
      const sandboxed = sandboxedCommand(status, {
        argv: network
          ? ["bash", "-c", WAIT_FOR_NETWORK, "hermes-net", req.command]
          : ["bash", "-c", req.command],
        workspace: req.workspace,
        cwd: req.cwd,
        writable: true,
        hiddenPaths,
        readPaths,
        env: envBase,
        resolvConf: network ? join(dir, "resolv.conf") : undefined,
        outerNet,
      });
      const child = sandboxed ? sandboxed.spawn() : new Deno.Command("bash", {
        args: ["-c", req.command],
        cwd: req.cwd,
        clearEnv: true,
        env: { ...envBase, HOME: join(dir, "home") },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        detached: true,
      }).spawn();
      running.add(child);
      let slirp: Deno.ChildProcess | null = null;
      const netDone = new AbortController();
      const attaching = network
        ? netnsPid(child.pid, outerNet, netDone.signal).then((pid) => {
          if (pid && !netDone.signal.aborted) slirp = attachNetwork(network, pid, outerNet);
        })
        : Promise.resolve();
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
      netDone.abort();
      await attaching;
      if (slirp) await stopSlirp(slirp);
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
        sandboxed: sandboxed !== null,
        networkUnavailable: req.allowNetwork && sandboxed !== null && !network,
        omittedBytes: omitted,
      };
    },
    async close() {
      closed = true;
      for (const child of running) killGroup(child, "SIGKILL");
      await Promise.all([...running].map((c) => c.status.catch(() => {})));
      if (scratch) await Deno.remove(scratch, { recursive: true }).catch(() => {});
    },
  };
  return runner;
}

/** Exposed for tests of the head+tail cap. */
export function capOutput(text: string, head: number, tail: number): string {
  const c = new OutputCapture(head, tail);
  c.push(encoder.encode(text));
  return c.text().text;
}
