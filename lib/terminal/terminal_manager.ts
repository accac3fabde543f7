// The person's terminals: several per session, each a sandboxed PTY shell (pty_shell.ts) with a
// bounded scrollback replayed on reattach. Invariants: at most `maxPerSession` per session and
// `maxTotal` overall; output is read at most `rateBytesPerSec` (the shell blocks beyond it); a
// terminal nobody watches for `graceMs` is killed; deleting the session or closing the app kills
// its shells; a terminal is only ever reached through the session that started it.
import type { SandboxHandle } from "../sandbox/bwrap_sandbox.ts";
import { BusyError, NotFoundError, ValidationError } from "../errors.ts";
import { randomHex } from "../ids.ts";
import { clampSize, type PtyShell, startPtyShell } from "./pty_shell.ts";
import { Scrollback } from "./scrollback.ts";

export interface TerminalLimits {
  graceMs: number;
  maxPerSession: number;
  maxTotal: number;
  scrollbackBytes: number;
  rateBytesPerSec: number;
  /** Largest single input (bytes): a paste, not a file upload. */
  maxInputBytes: number;
}

export const DEFAULT_TERMINAL_LIMITS: TerminalLimits = {
  graceMs: 30_000,
  maxPerSession: 4,
  maxTotal: 16,
  scrollbackBytes: 256 * 1024,
  rateBytesPerSec: 1024 * 1024,
  maxInputBytes: 64 * 1024,
};

export interface TerminalInfo {
  terminal_id: string;
  session_id: string;
  rows: number;
  cols: number;
  created_at: number;
  /** Viewers attached right now (WebSocket or HTTP output streams). */
  viewers: number;
}

/** A viewer: gets live output after the scrollback it was handed, then the exit. */
export interface TerminalListener {
  data(chunk: Uint8Array): void;
  exit(code: number): void;
}

export interface StartTerminal {
  sessionId: string;
  /** Real path of the session's workspace (also the working directory). */
  workspace: string;
  allowNetwork: boolean;
  rows?: unknown;
  cols?: unknown;
}

export interface TerminalManager {
  start(req: StartTerminal): Promise<TerminalInfo>;
  list(sessionId: string): TerminalInfo[];
  info(sessionId: string, terminalId: string): TerminalInfo;
  input(sessionId: string, terminalId: string, data: Uint8Array | string): Promise<void>;
  resize(sessionId: string, terminalId: string, rows: unknown, cols: unknown): TerminalInfo;
  /** Attach a viewer: returns the scrollback so far and a detach function. */
  attach(
    sessionId: string,
    terminalId: string,
    listener: TerminalListener,
  ): { scrollback: Uint8Array; detach(): void };
  close(sessionId: string, terminalId: string): Promise<boolean>;
  closeSession(sessionId: string): Promise<void>;
  /** Kill every shell and refuse new ones (app shutdown). */
  shutdown(): Promise<void>;
  readonly limits: TerminalLimits;
  /** Change limits (tests shorten the grace period). */
  configure(limits: Partial<TerminalLimits>): void;
}

interface Terminal {
  id: string;
  sessionId: string;
  rows: number;
  cols: number;
  createdAt: number;
  shell: PtyShell;
  dir: string;
  scrollback: Scrollback;
  listeners: Set<TerminalListener>;
  grace?: ReturnType<typeof setTimeout>;
  done: Promise<void>;
  /** Input bytes written but not yet taken by the PTY (a stopped program reads nothing). */
  pendingInput: number;
}

/** Unread input a terminal may hold before more is refused. */
const MAX_PENDING_INPUT = 1024 * 1024;

export interface TerminalManagerOptions {
  sandbox: SandboxHandle;
  /** PATH and LANG of the shell (config.env); nothing else of the server's env reaches it. */
  env: () => { PATH?: string; LANG?: string };
  limits?: Partial<TerminalLimits>;
}

const TERMINAL_ID_RE = /^[0-9a-f]{16}$/;

export function createTerminalManager(opts: TerminalManagerOptions): TerminalManager {
  const limits: TerminalLimits = { ...DEFAULT_TERMINAL_LIMITS, ...opts.limits };
  const terminals = new Map<string, Terminal>();
  let shuttingDown = false;
  let starting = 0;

  const find = (sessionId: string, terminalId: string): Terminal => {
    const t = TERMINAL_ID_RE.test(terminalId) ? terminals.get(terminalId) : undefined;
    if (!t || t.sessionId !== sessionId) {
      throw new NotFoundError(`Terminal "${terminalId.slice(0, 40)}" is not running`);
    }
    return t;
  };
  const infoOf = (t: Terminal): TerminalInfo => ({
    terminal_id: t.id,
    session_id: t.sessionId,
    rows: t.rows,
    cols: t.cols,
    created_at: t.createdAt,
    viewers: t.listeners.size,
  });
  const armGrace = (t: Terminal) => {
    clearTimeout(t.grace);
    t.grace = undefined;
    if (t.listeners.size > 0) return;
    t.grace = setTimeout(() => void kill(t), limits.graceMs);
  };
  const kill = async (t: Terminal) => {
    clearTimeout(t.grace);
    await t.shell.kill();
    await t.done;
  };

  /** Read the PTY under a token bucket: past the rate, stop reading so the shell blocks. */
  const pump = async (t: Terminal) => {
    let tokens = limits.rateBytesPerSec;
    let last = performance.now();
    try {
      for await (const chunk of t.shell.output) {
        const now = performance.now();
        tokens = Math.min(
          limits.rateBytesPerSec,
          tokens + (now - last) * limits.rateBytesPerSec / 1000,
        );
        last = now;
        tokens -= chunk.length;
        t.scrollback.push(chunk);
        for (const l of t.listeners) l.data(chunk);
        if (tokens < 0) {
          await new Promise((r) => setTimeout(r, (-tokens / limits.rateBytesPerSec) * 1000));
        }
      }
    } catch { /* killed */ }
  };

  const manager: TerminalManager = {
    limits,
    configure(l) {
      Object.assign(limits, l);
    },
    async start(req) {
      if (shuttingDown) throw new BusyError("The server is shutting down");
      const mine = [...terminals.values()].filter((t) => t.sessionId === req.sessionId).length;
      if (mine >= limits.maxPerSession) {
        throw new BusyError(
          `This session already has ${mine} terminals open; close one first ` +
            `(at most ${limits.maxPerSession} per session)`,
        );
      }
      if (terminals.size + starting >= limits.maxTotal) {
        throw new BusyError(
          `${terminals.size} terminals are open; at most ${limits.maxTotal} at once`,
        );
      }
      starting++;
      let dir: string | undefined;
      try {
        const { rows, cols } = clampSize(req.rows, req.cols);
        const status = await opts.sandbox.status();
        dir = await Deno.makeTempDir({ prefix: "hermes-tty-" });
        const env = opts.env();
        const shell = await startPtyShell({
          status,
          workspace: req.workspace,
          cwd: req.workspace,
          hiddenPaths: opts.sandbox.hiddenPaths,
          readPaths: opts.sandbox.readPaths ?? [],
          allowNetwork: req.allowNetwork,
          rows,
          cols,
          dir,
          env: {
            PATH: env.PATH ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            LANG: env.LANG ?? "C.UTF-8",
          },
        });
        const t: Terminal = {
          id: randomHex(16),
          sessionId: req.sessionId,
          rows,
          cols,
          createdAt: Date.now() / 1000,
          shell,
          dir,
          scrollback: new Scrollback(limits.scrollbackBytes),
          listeners: new Set(),
          done: Promise.resolve(),
          pendingInput: 0,
        };
        const tmp = dir;
        t.done = (async () => {
          const [code] = await Promise.all([shell.exited, pump(t)]);
          clearTimeout(t.grace);
          terminals.delete(t.id);
          for (const l of t.listeners) l.exit(code);
          t.listeners.clear();
          await Deno.remove(tmp, { recursive: true }).catch(() => {});
        })();
        terminals.set(t.id, t);
        if (shuttingDown) {
          await kill(t); // shutdown() ran while this one was starting
          throw new BusyError("The server is shutting down");
        }
        armGrace(t); // born unwatched: a start nobody attaches to does not live forever
        return infoOf(t);
      } catch (err) {
        if (dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
        throw err;
      } finally {
        starting--;
      }
    },
    list(sessionId) {
      return [...terminals.values()].filter((t) => t.sessionId === sessionId).map(infoOf);
    },
    info(sessionId, terminalId) {
      return infoOf(find(sessionId, terminalId));
    },
    async input(sessionId, terminalId, data) {
      const t = find(sessionId, terminalId);
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      if (bytes.length > limits.maxInputBytes) {
        throw new ValidationError(
          `Terminal input is ${bytes.length} bytes; at most ${limits.maxInputBytes} at once`,
        );
      }
      if (t.pendingInput + bytes.length > MAX_PENDING_INPUT) {
        throw new BusyError("The terminal is not reading its input; try again when it does");
      }
      t.pendingInput += bytes.length;
      try {
        await t.shell.write(bytes);
      } catch {
        throw new NotFoundError(`Terminal "${terminalId}" has exited`);
      } finally {
        t.pendingInput -= bytes.length;
      }
    },
    resize(sessionId, terminalId, rows, cols) {
      const t = find(sessionId, terminalId);
      const size = clampSize(rows, cols);
      if (size.rows !== t.rows || size.cols !== t.cols) {
        t.rows = size.rows;
        t.cols = size.cols;
        t.shell.resize(size.rows, size.cols);
      }
      return infoOf(t);
    },
    attach(sessionId, terminalId, listener) {
      const t = find(sessionId, terminalId);
      t.listeners.add(listener);
      armGrace(t);
      return {
        scrollback: t.scrollback.bytes(),
        detach() {
          if (!t.listeners.delete(listener)) return;
          if (terminals.get(t.id) === t) armGrace(t);
        },
      };
    },
    async close(sessionId, terminalId) {
      const t = find(sessionId, terminalId);
      await kill(t);
      return true;
    },
    async closeSession(sessionId) {
      await Promise.all(
        [...terminals.values()].filter((t) => t.sessionId === sessionId).map(kill),
      );
    },
    async shutdown() {
      shuttingDown = true;
      await Promise.all([...terminals.values()].map(kill));
    },
  };
  return manager;
}
