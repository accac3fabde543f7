// A pool of file-tool Workers, one per workspace, each started with Deno permissions that
// allow reading and writing that workspace and FFI to libc only (no net, run, env, sys); the
// files themselves are opened through libc beneath the workspace fd (safe_fs.ts). Invariants:
// a call that runs past its deadline terminates its worker (a runaway regex cannot wedge the
// pool); a crashed or timed-out worker is replaced on the next call; close() ends them all.
import type { FileOpResult } from "./file_ops.ts";
import { appUrl } from "../server/app_paths.ts";
import { findLibc } from "./safe_fs.ts";

export type FileOpName = "read" | "write" | "patch" | "list" | "search" | "probe";

export interface FileOpRequest {
  id: number;
  op: FileOpName;
  /** The workspace real path (the worker's only readable/writable tree). */
  root: string;
  args: Record<string, unknown>;
  /** Absolute real paths inside the workspace that the operation must refuse and hide. */
  protected: string[];
  /** `dev:ino` of protected files: refused under any name (a hard link). */
  protectedFileIds: string[];
  /** The libc the worker may load (its only FFI grant). */
  libc: string;
}

export interface FileOpResponse {
  id: number;
  result: FileOpResult;
}

interface Pending {
  resolve(result: FileOpResult): void;
  timer: ReturnType<typeof setTimeout>;
}

interface PooledWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  idleTimer?: ReturnType<typeof setTimeout>;
}

export interface FileSandboxPool {
  /** Run one file operation in the workspace's worker. Never rejects: failures are results. */
  run(
    workspace: string,
    op: FileOpName,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<FileOpResult>;
  /** How many workers are alive (for tests and the health view). */
  size(): number;
  close(): void;
}

export interface FileSandboxOptions {
  /** Deadline of one operation before its worker is terminated (default 30 s). */
  callTimeoutMs?: number;
  /** An unused worker is terminated after this long (default 5 min). */
  idleMs?: number;
  /**
   * The protected paths inside a workspace (real path given), asked before every call so a
   * credentials folder created later is covered too. Default: none.
   */
  protectedPaths?: (workspace: string) => Promise<string[]>;
  /** `dev:ino` of protected files, refused under any name (hard links). Default: none. */
  protectedFileIds?: () => Promise<string[]>;
}

/** Create the pool. The owner registers `close()` with app.onClose. */
export function createFileSandboxPool(opts: FileSandboxOptions = {}): FileSandboxPool {
  const callTimeoutMs = opts.callTimeoutMs ?? 30_000;
  const idleMs = opts.idleMs ?? 5 * 60_000;
  const libc = findLibc();
  const workers = new Map<string, PooledWorker>();
  let nextId = 1;
  let closed = false;

  const retire = (workspace: string, pooled: PooledWorker, reason: string) => {
    if (workers.get(workspace) === pooled) workers.delete(workspace);
    if (pooled.idleTimer !== undefined) clearTimeout(pooled.idleTimer);
    pooled.worker.terminate();
    for (const [, p] of pooled.pending) {
      clearTimeout(p.timer);
      p.resolve({ output: reason, isError: true });
    }
    pooled.pending.clear();
  };

  const spawn = (workspace: string): PooledWorker => {
    const worker = new Worker(appUrl("lib/sandbox/file_worker.ts"), {
      type: "module",
      name: `file-sandbox:${workspace}`,
      deno: {
        permissions: {
          read: [workspace],
          write: [workspace],
          net: false,
          run: false,
          env: false,
          ffi: libc ? [libc] : false,
          sys: false,
          import: false,
        },
      },
    });
    const pooled: PooledWorker = { worker, pending: new Map() };
    worker.onmessage = (e: MessageEvent<FileOpResponse>) => {
      const p = pooled.pending.get(e.data.id);
      if (!p) return;
      pooled.pending.delete(e.data.id);
      clearTimeout(p.timer);
      p.resolve(e.data.result);
      armIdle(workspace, pooled);
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      retire(workspace, pooled, `The file sandbox failed: ${e.message}`);
    };
    workers.set(workspace, pooled);
    return pooled;
  };

  const armIdle = (workspace: string, pooled: PooledWorker) => {
    if (pooled.idleTimer !== undefined) clearTimeout(pooled.idleTimer);
    pooled.idleTimer = undefined;
    if (pooled.pending.size > 0) return;
    const timer = setTimeout(() => {
      if (pooled.pending.size === 0) retire(workspace, pooled, "idle");
    }, idleMs);
    Deno.unrefTimer(timer as unknown as number);
    pooled.idleTimer = timer;
  };

  return {
    async run(given, op, args, signal) {
      if (closed) return { output: "The file sandbox is shut down.", isError: true };
      if (signal?.aborted) return { output: "Cancelled.", isError: true };
      // Permissions are granted on the real path, the one resolveInWorkspace hands out.
      let workspace: string;
      try {
        workspace = await Deno.realPath(given);
      } catch {
        return { output: `The workspace ${given} does not exist.`, isError: true };
      }
      if (!libc) {
        return {
          output: "The file tools need Linux with glibc (files are opened with openat2).",
          isError: true,
        };
      }
      let hidden: string[];
      let hiddenIds: string[];
      try {
        hidden = (await opts.protectedPaths?.(workspace)) ?? [];
        hiddenIds = (await opts.protectedFileIds?.()) ?? [];
      } catch {
        return { output: "The file sandbox could not list protected paths.", isError: true };
      }
      if (closed) return { output: "The file sandbox is shut down.", isError: true };
      let pooled: PooledWorker;
      try {
        pooled = workers.get(workspace) ?? spawn(workspace);
      } catch (err) {
        // The parent lacks a permission the worker needs (e.g. started without --allow-ffi).
        return {
          output: `The file sandbox cannot start: ${(err as Error).message}`,
          isError: true,
        };
      }
      if (pooled.idleTimer !== undefined) clearTimeout(pooled.idleTimer);
      pooled.idleTimer = undefined;
      const id = nextId++;
      return await new Promise<FileOpResult>((resolve) => {
        const onAbort = () => {
          const p = pooled.pending.get(id);
          if (!p) return;
          // The operation may still finish in the worker; its answer is simply dropped.
          pooled.pending.delete(id);
          clearTimeout(p.timer);
          resolve({ output: "Cancelled.", isError: true });
          armIdle(workspace, pooled);
        };
        const timer = setTimeout(() => {
          retire(
            workspace,
            pooled,
            `The ${op} operation did not finish within ${
              callTimeoutMs < 1000 ? `${callTimeoutMs} ms` : `${Math.round(callTimeoutMs / 1000)} s`
            } ` +
              `and was stopped (a pathological regex or a very large tree?).`,
          );
        }, callTimeoutMs);
        pooled.pending.set(id, {
          resolve: (r) => {
            signal?.removeEventListener("abort", onAbort);
            resolve(r);
          },
          timer,
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        pooled.worker.postMessage(
          {
            id,
            op,
            root: workspace,
            args,
            protected: hidden,
            protectedFileIds: hiddenIds,
            libc,
          } satisfies FileOpRequest,
        );
      });
    },
    size: () => workers.size,
    close() {
      closed = true;
      for (const [ws, pooled] of [...workers]) retire(ws, pooled, "The file sandbox is shut down.");
    },
  };
}
