// Workspace change feed: one recursive Deno.watchFs per workspace that someone is looking at,
// debounced into `workspace_changed` events carrying the changed workspace-relative paths, so the
// panel's tree refreshes when the agent or a person changes files. Invariants: a watcher exists
// only while it has listeners (the last unsubscribe closes it); events never carry a path
// outside the workspace nor a protected one; one set of watchers per database (per app).
import { relative, sep } from "node:path";
import type { Db } from "../storage/db.ts";
import { isProtectedPath, type ProtectedPathsConfig, realSecretPaths } from "./protected_paths.ts";

export interface WorkspaceChanged {
  type: "workspace_changed";
  /** The real workspace root. */
  workspace: string;
  /** Workspace-relative, "/"-separated, at most MAX_PATHS (then `truncated`). */
  paths: string[];
  truncated: boolean;
}

type Listener = (e: WorkspaceChanged) => void;
export const DEBOUNCE_MS = 250;
const MAX_PATHS = 200;
/** Distinct workspaces watched at once (each holds inotify watches for its whole tree). */
export const MAX_WATCHERS = 16;

interface Entry {
  watcher: Deno.FsWatcher;
  listeners: Set<Listener>;
  pending: Set<string>;
  timer: ReturnType<typeof setTimeout> | undefined;
  secrets: string[];
}

/** The open watchers of one app. */
export class WorkspaceWatchers {
  #entries = new Map<string, Entry>();

  /** Watch `workspace` for `fn`; returns the function that stops (idempotent). */
  async subscribe(
    workspace: string,
    fn: Listener,
    protect?: ProtectedPathsConfig,
  ): Promise<() => void> {
    const root = await Deno.realPath(workspace);
    let entry = this.#entries.get(root);
    if (!entry) {
      const secrets = protect ? await realSecretPaths(protect) : [];
      // Re-check: another subscribe may have opened it while the secrets were read.
      entry = this.#entries.get(root);
      if (!entry) {
        // Past the cap, or when the kernel refuses (inotify limits on a huge tree), the stream
        // stays open without changes: closing it would only make the client reconnect in a loop.
        if (this.#entries.size >= MAX_WATCHERS) return () => {};
        let watcher: Deno.FsWatcher;
        try {
          watcher = Deno.watchFs(root, { recursive: true });
        } catch {
          return () => {};
        }
        entry = {
          watcher,
          listeners: new Set(),
          pending: new Set(),
          timer: undefined,
          secrets,
        };
        this.#entries.set(root, entry);
        // Runs for the watcher's life; it catches its own errors and closes the entry.
        void this.#pump(root, entry);
      }
    }
    const e = entry;
    e.listeners.add(fn);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      e.listeners.delete(fn);
      if (e.listeners.size === 0) this.#close(root, e);
    };
  }

  async #pump(root: string, e: Entry): Promise<void> {
    try {
      for await (const ev of e.watcher) {
        for (const p of ev.paths) {
          const rel = relative(root, p);
          if (rel === "" || rel === ".." || rel.startsWith(".." + sep) || rel.startsWith(sep)) {
            continue;
          }
          if (isProtectedPath(p, e.secrets)) continue;
          // Git's own bookkeeping changes on every status call: report the folder once.
          const shown = rel.split(sep)[0] === ".git" ? ".git" : rel.split(sep).join("/");
          if (e.pending.size <= MAX_PATHS) e.pending.add(shown);
        }
        if (e.pending.size && e.timer === undefined) {
          e.timer = setTimeout(() => this.#flush(root, e), DEBOUNCE_MS);
        }
      }
    } catch { /* watcher closed or the folder went away */ }
  }

  #flush(root: string, e: Entry): void {
    e.timer = undefined;
    const all = [...e.pending].sort();
    e.pending.clear();
    const event: WorkspaceChanged = {
      type: "workspace_changed",
      workspace: root,
      paths: all.slice(0, MAX_PATHS),
      truncated: all.length > MAX_PATHS,
    };
    for (const fn of [...e.listeners]) {
      try {
        fn(event);
      } catch { /* a broken listener must not stop the others */ }
    }
  }

  #close(root: string, e: Entry): void {
    clearTimeout(e.timer);
    e.timer = undefined;
    try {
      e.watcher.close();
    } catch { /* already closed */ }
    if (this.#entries.get(root) === e) this.#entries.delete(root);
  }

  /** Open watchers (a test checks it returns to 0 when nobody listens). */
  count(): number {
    return this.#entries.size;
  }

  closeAll(): void {
    for (const [root, e] of [...this.#entries]) this.#close(root, e);
  }
}

const byDb = new WeakMap<Db, WorkspaceWatchers>();

/** The watchers of the app owning `db` (created on first use). */
export function workspaceWatchers(db: Db): WorkspaceWatchers {
  let w = byDb.get(db);
  if (!w) {
    w = new WorkspaceWatchers();
    byDb.set(db, w);
  }
  return w;
}
