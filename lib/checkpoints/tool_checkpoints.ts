// The engine's checkpoint hook: before a file-changing tool call (write_file, patch, terminal) the
// files it may touch are captured; after it, the ones that really changed become one checkpoint
// (lib/checkpoints/checkpoint_store.ts). write_file/patch name their file; the terminal's changes
// are found by a size+mtime scan against a per-workspace baseline whose contents are kept.
// Invariant: a checkpoint failure is logged and never fails or delays the tool call's result.
import type { EngineHost } from "../engine/engine_host.ts";
import {
  type Checkpoint,
  type CheckpointFile,
  checkpointStore,
  type FileState,
} from "./checkpoint_store.ts";
import {
  type Captured,
  type Guard,
  makeGuard,
  normalizeRel,
  readCaptured,
} from "./workspace_io.ts";
import { type ScanEntry, scanWorkspace } from "./workspace_scan.ts";

/** Files over this size are listed but not kept (not restorable). */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Content read per terminal call to refresh the baseline; past it files are listed, not kept. */
export const MAX_SCAN_READ_BYTES = 64 * 1024 * 1024;
/** Files one checkpoint records at most. */
export const MAX_FILES_PER_CHECKPOINT = 2000;

export const CHECKPOINTED_TOOLS = new Set(["write_file", "patch", "terminal"]);

export interface ToolCallInfo {
  sessionId: string;
  turnId: string;
  toolCallId: string;
  tool: string;
  args: Record<string, unknown>;
  /** The session's workspace (a real path). */
  workspace: string;
}

export interface PendingCheckpoint {
  /** Record what changed (call once the tool returned). */
  finish(): Promise<void>;
}

/** What the terminal baseline knows about one file. */
interface Known extends ScanEntry {
  state: FileState;
}

/** Per workspace (keyed by state dir + path): the last scan with its kept contents. */
const baselines = new Map<string, Map<string, Known>>();

async function stateOf(
  store: ReturnType<typeof checkpointStore>,
  c: Captured,
): Promise<FileState> {
  if (c.kind === "absent") return { sha: null, size: 0 };
  if (c.kind === "skipped") return { sha: null, size: 0, skipped: c.reason };
  return { sha: await store.putBlob(c.bytes), size: c.bytes.length };
}

const same = (a: FileState, b: FileState) => a.sha === b.sha && !a.skipped && !b.skipped;

let lastStamp = 0;

/** Ids sort in creation order (a millisecond stamp, made strictly increasing) then random. */
function newId(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  const rand = crypto.getRandomValues(new Uint8Array(4));
  return `ck_${lastStamp.toString(36).padStart(9, "0")}_${
    Array.from(rand, (x) => x.toString(16).padStart(2, "0")).join("")
  }`;
}

/**
 * Capture what `call` may change. Null for tools that change no files. Never throws: on failure
 * it logs and returns null (the call runs without a checkpoint).
 */
export async function beginToolCheckpoint(
  app: EngineHost,
  call: ToolCallInfo,
): Promise<PendingCheckpoint | null> {
  if (!CHECKPOINTED_TOOLS.has(call.tool)) return null;
  try {
    const guard = await makeGuard(app.config);
    const store = checkpointStore(app.config.stateDir);
    const save = async (files: CheckpointFile[], omitted = 0) => {
      if (!files.length) return;
      const cp: Checkpoint = {
        id: newId(),
        session_id: call.sessionId,
        turn_id: call.turnId,
        tool_call_id: call.toolCallId,
        tool: call.tool,
        created_at: app.clock(),
        files: files.slice(0, MAX_FILES_PER_CHECKPOINT),
        ...(omitted || files.length > MAX_FILES_PER_CHECKPOINT
          ? { omitted: omitted + Math.max(0, files.length - MAX_FILES_PER_CHECKPOINT) }
          : {}),
      };
      await store.save(cp);
    };
    const guarded = (fn: () => Promise<void>) => async () => {
      try {
        await fn();
      } catch (err) {
        app.log.warn("checkpoint failed", { tool: call.tool, error: (err as Error).message });
      }
    };
    if (call.tool === "terminal") {
      return await beginTerminal(app, call, guard, store, save, guarded);
    }
    const path = normalizeRel(call.args.path);
    if (!path) return null;
    const before = readCaptured(call.workspace, path, guard, MAX_FILE_BYTES);
    if (before.kind === "skipped" && before.reason === "protected") return null;
    return {
      finish: guarded(async () => {
        const after = readCaptured(call.workspace, path, guard, MAX_FILE_BYTES);
        if (
          before.kind === "file" && after.kind === "file" && equalBytes(before.bytes, after.bytes)
        ) return;
        if (before.kind === "absent" && after.kind === "absent") return;
        await save([{
          path,
          before: await stateOf(store, before),
          after: await stateOf(store, after),
        }]);
      }),
    };
  } catch (err) {
    app.log.warn("checkpoint failed", { tool: call.tool, error: (err as Error).message });
    return null;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function beginTerminal(
  app: EngineHost,
  call: ToolCallInfo,
  guard: Guard,
  store: ReturnType<typeof checkpointStore>,
  save: (files: CheckpointFile[], omitted?: number) => Promise<void>,
  guarded: (fn: () => Promise<void>) => () => Promise<void>,
): Promise<PendingCheckpoint> {
  const key = `${app.config.stateDir}\0${call.workspace}`;
  const known = baselines.get(key) ?? new Map<string, Known>();
  baselines.set(key, known);
  const pre = await scanWorkspace(call.workspace, { protectedPaths: guard.paths });
  // Keep the content of every file that is new or changed since the baseline (the first call in
  // a workspace reads it all, within the caps; later ones only what moved).
  let budget = MAX_SCAN_READ_BYTES;
  for (const [path, e] of pre.files) {
    const k = known.get(path);
    if (k && k.size === e.size && k.mtimeMs === e.mtimeMs) continue;
    let state: FileState;
    if (e.size > MAX_FILE_BYTES || e.size > budget) {
      state = { sha: null, size: e.size, skipped: "too large" };
    } else {
      const c = readCaptured(call.workspace, path, guard, MAX_FILE_BYTES);
      budget -= c.kind === "file" ? c.bytes.length : 0;
      state = await stateOf(store, c);
    }
    known.set(path, { ...e, state });
  }
  for (const path of [...known.keys()]) {
    if (!pre.files.has(path) && !pre.partial) known.delete(path);
  }
  return {
    finish: guarded(async () => {
      const post = await scanWorkspace(call.workspace, { protectedPaths: guard.paths });
      const files: CheckpointFile[] = [];
      let omitted = 0;
      for (const [path, e] of post.files) {
        const k = known.get(path);
        if (k && k.size === e.size && k.mtimeMs === e.mtimeMs) continue;
        if (files.length >= MAX_FILES_PER_CHECKPOINT) {
          omitted++;
          continue;
        }
        const after = e.size > MAX_FILE_BYTES
          ? { sha: null, size: e.size, skipped: "too large" }
          : await stateOf(store, readCaptured(call.workspace, path, guard, MAX_FILE_BYTES));
        const before: FileState = k?.state ?? { sha: null, size: 0 };
        known.set(path, { ...e, state: after });
        if (k && same(before, after)) continue; // touched, same content
        files.push({ path, before, after });
      }
      if (!post.partial && !pre.partial) {
        for (const [path, k] of [...known]) {
          if (post.files.has(path)) continue;
          known.delete(path);
          files.push({ path, before: k.state, after: { sha: null, size: 0 } });
        }
      }
      await save(files, omitted);
    }),
  };
}

/** Forget the terminal baselines (tests; a workspace removed). */
export function resetBaselines(): void {
  baselines.clear();
}
