// Checkpoints on disk, in the state dir (never the user's git): file contents are blobs named by
// their SHA-256 (`objects/ab/cdef…`, written once, deduplicated), and each checkpoint is one JSON
// manifest per tool call (`sessions/<session>/<id>.json`) saying which files it changed and their
// blob before and after. Invariants: ids and session ids are checked before they become paths;
// a manifest lists only files whose content really changed.
import { join } from "node:path";

/** One file's state: a blob, absent (`null` sha), or present but not kept (too large, symlink…). */
export interface FileState {
  sha: string | null;
  size: number;
  /** Set when the file existed but its content was not kept (it cannot be restored). */
  skipped?: string;
}

export interface CheckpointFile {
  path: string;
  before: FileState;
  after: FileState;
}

export interface Checkpoint {
  id: string;
  session_id: string;
  turn_id: string;
  tool_call_id: string;
  tool: string;
  created_at: number;
  files: CheckpointFile[];
  /** Files that changed beyond the capture caps (listed so the user knows, not restorable). */
  omitted?: number;
  restored_at?: number;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

const ID = /^[A-Za-z0-9_-]{1,80}$/;
const SHA = /^[0-9a-f]{64}$/;

export function isCheckpointId(id: unknown): id is string {
  return typeof id === "string" && ID.test(id);
}

export class CheckpointStore {
  constructor(readonly dir: string) {}

  #objectPath(sha: string): string {
    if (!SHA.test(sha)) throw new Error(`bad blob id ${sha}`);
    return join(this.dir, "objects", sha.slice(0, 2), sha.slice(2));
  }

  #sessionDir(sessionId: string): string {
    if (!isCheckpointId(sessionId)) throw new Error("bad session id");
    return join(this.dir, "sessions", sessionId);
  }

  /** Store `bytes` (once) and return its SHA-256. */
  async putBlob(bytes: Uint8Array): Promise<string> {
    const sha = hex(
      new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)),
    );
    const path = this.#objectPath(sha);
    try {
      await Deno.lstat(path);
      return sha;
    } catch { /* not stored yet */ }
    await Deno.mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    await Deno.writeFile(tmp, bytes, { mode: 0o600 });
    await Deno.rename(tmp, path);
    return sha;
  }

  async getBlob(sha: string): Promise<Uint8Array | null> {
    try {
      return await Deno.readFile(this.#objectPath(sha));
    } catch {
      return null;
    }
  }

  async save(cp: Checkpoint): Promise<void> {
    if (!isCheckpointId(cp.id)) throw new Error("bad checkpoint id");
    const dir = this.#sessionDir(cp.session_id);
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `.${cp.id}.${crypto.randomUUID()}.tmp`);
    await Deno.writeTextFile(tmp, JSON.stringify(cp), { mode: 0o600 });
    await Deno.rename(tmp, join(dir, `${cp.id}.json`));
  }

  /** The session's checkpoints, oldest first. */
  async list(sessionId: string): Promise<Checkpoint[]> {
    const out: Checkpoint[] = [];
    let dir: string;
    try {
      dir = this.#sessionDir(sessionId);
    } catch {
      return out;
    }
    try {
      for await (const e of Deno.readDir(dir)) {
        if (!e.isFile || !e.name.endsWith(".json") || e.name.startsWith(".")) continue;
        try {
          out.push(JSON.parse(await Deno.readTextFile(join(dir, e.name))) as Checkpoint);
        } catch { /* a torn manifest is skipped */ }
      }
    } catch { /* no checkpoints yet */ }
    // Ids carry a strictly increasing stamp: they order calls made within one clock tick.
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async get(sessionId: string, id: string): Promise<Checkpoint | null> {
    if (!isCheckpointId(id)) return null;
    try {
      return JSON.parse(
        await Deno.readTextFile(join(this.#sessionDir(sessionId), `${id}.json`)),
      ) as Checkpoint;
    } catch {
      return null;
    }
  }
}

const stores = new Map<string, CheckpointStore>();

/** The store of a state dir (one per app). */
export function checkpointStore(stateDir: string): CheckpointStore {
  let s = stores.get(stateDir);
  if (!s) stores.set(stateDir, s = new CheckpointStore(join(stateDir, "checkpoints")));
  return s;
}
