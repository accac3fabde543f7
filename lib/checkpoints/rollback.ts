// Rolling back checkpoints (routes/api/rollback/*): list a session's checkpoints, preview what a
// restore would do (a unified diff from the current file to its earlier content), and restore.
// A selection is one tool call ("Undo this change") or a whole turn ("Roll back this turn"): each
// path goes back to its content before the FIRST selected call that touched it. Invariants: writes
// go through workspace_io (beneath the workspace, no symlinks, no protected paths); a file changed
// since the checkpoint is still restored but flagged `changed_since` in the preview.
import { createTwoFilesPatch } from "diff";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import type { Checkpoint, CheckpointStore, FileState } from "./checkpoint_store.ts";
import { isCheckpointId } from "./checkpoint_store.ts";
import { type Captured, type Guard, readCaptured, removeFile, writeFile } from "./workspace_io.ts";
import { MAX_FILE_BYTES } from "./tool_checkpoints.ts";

export interface Selection {
  checkpoint?: string;
  tool_call_id?: string;
  turn_id?: string;
}

export interface CheckpointSummary {
  id: string;
  turn_id: string;
  tool_call_id: string;
  tool: string;
  created_at: number;
  restored_at: number | null;
  omitted: number;
  files: Array<{ path: string; status: "added" | "modified" | "deleted"; restorable: boolean }>;
}

const change = (f: { before: FileState; after: FileState }) =>
  f.before.sha === null && !f.before.skipped
    ? "added"
    : f.after.sha === null && !f.after.skipped
    ? "deleted"
    : "modified";

export async function listCheckpoints(
  store: CheckpointStore,
  sessionId: string,
): Promise<CheckpointSummary[]> {
  return (await store.list(sessionId)).map((cp) => ({
    id: cp.id,
    turn_id: cp.turn_id,
    tool_call_id: cp.tool_call_id,
    tool: cp.tool,
    created_at: cp.created_at,
    restored_at: cp.restored_at ?? null,
    omitted: cp.omitted ?? 0,
    files: cp.files.map((f) => ({
      path: f.path,
      status: change(f),
      restorable: !f.before.skipped,
    })),
  }));
}

/**
 * The turns of a session whose file changes still stand (a checkpoint is saved only for a call
 * that changed something, and marked once restored): "Roll back this turn" is offered for these
 * alone — a turn already rolled back has nothing left to roll back.
 */
export async function turnsWithChanges(
  store: CheckpointStore,
  sessionId: string,
): Promise<Set<string>> {
  return new Set(
    (await store.list(sessionId)).filter((cp) => !cp.restored_at).map((cp) => cp.turn_id),
  );
}

/** The checkpoints a selection names (oldest first); 404 when none. */
export async function selectCheckpoints(
  store: CheckpointStore,
  sessionId: string,
  sel: Selection,
): Promise<Checkpoint[]> {
  const given = [sel.checkpoint, sel.tool_call_id, sel.turn_id].filter((v) => v !== undefined);
  if (given.length !== 1) {
    throw new ValidationError("Name exactly one of checkpoint, tool_call_id or turn_id");
  }
  for (const v of given) {
    if (typeof v !== "string" || v.length > 200 || v.includes("\0")) {
      throw new NotFoundError("No such checkpoint");
    }
  }
  let picked: Checkpoint[];
  if (sel.checkpoint !== undefined) {
    if (!isCheckpointId(sel.checkpoint)) throw new NotFoundError("No such checkpoint");
    const cp = await store.get(sessionId, sel.checkpoint);
    picked = cp ? [cp] : [];
  } else {
    const all = await store.list(sessionId);
    picked = sel.tool_call_id !== undefined
      ? all.filter((c) => c.tool_call_id === sel.tool_call_id)
      : all.filter((c) => c.turn_id === sel.turn_id);
  }
  if (!picked.length) throw new NotFoundError("No checkpoint for this change");
  return picked;
}

/** Per path: the state to go back to, and the state the selection left it in. */
function targets(cps: Checkpoint[]): Map<string, { to: FileState; left: FileState }> {
  const out = new Map<string, { to: FileState; left: FileState }>();
  for (const cp of cps) {
    for (const f of cp.files) {
      const seen = out.get(f.path);
      if (seen) seen.left = f.after;
      else out.set(f.path, { to: f.before, left: f.after });
    }
  }
  return out;
}

const decoder = new TextDecoder("utf-8", { fatal: false });
const isBinary = (b: Uint8Array) => b.subarray(0, 8000).includes(0);

export interface RestorePreview {
  diff: string;
  files_changed: Array<{
    file: string;
    status: "restore" | "delete" | "recreate" | "unchanged" | "not_restorable";
    changed_since: boolean;
    binary: boolean;
  }>;
  total_changes: number;
  checkpoints: string[];
}

async function currentSha(c: Captured): Promise<string | null> {
  if (c.kind !== "file") return null;
  const d = new Uint8Array(
    await crypto.subtle.digest("SHA-256", c.bytes as Uint8Array<ArrayBuffer>),
  );
  return Array.from(d, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** What restoring `cps` would change in `workspace`, as one unified diff (current → restored). */
export async function previewRestore(
  store: CheckpointStore,
  workspace: string,
  guard: Guard,
  cps: Checkpoint[],
): Promise<RestorePreview> {
  const parts: string[] = [];
  const files: RestorePreview["files_changed"] = [];
  for (const [path, { to, left }] of targets(cps)) {
    const cur = readCaptured(workspace, path, guard, MAX_FILE_BYTES);
    const curSha = await currentSha(cur);
    const changedSince = curSha !== left.sha || !!left.skipped;
    if (to.skipped) {
      files.push({
        file: path,
        status: "not_restorable",
        changed_since: changedSince,
        binary: false,
      });
      continue;
    }
    if (curSha === to.sha && (to.sha !== null || cur.kind === "absent")) {
      files.push({ file: path, status: "unchanged", changed_since: false, binary: false });
      continue;
    }
    const target = to.sha ? await store.getBlob(to.sha) : null;
    const curBytes = cur.kind === "file" ? cur.bytes : new Uint8Array();
    const binary = isBinary(curBytes) || (target ? isBinary(target) : false);
    const status = to.sha === null ? "delete" : cur.kind === "absent" ? "recreate" : "restore";
    files.push({ file: path, status, changed_since: changedSince, binary });
    if (binary) {
      parts.push(`Binary file ${path} would be ${status === "delete" ? "deleted" : "restored"}\n`);
      continue;
    }
    parts.push(
      createTwoFilesPatch(
        cur.kind === "absent" ? "/dev/null" : `a/${path}`,
        to.sha === null ? "/dev/null" : `b/${path}`,
        decoder.decode(curBytes),
        target ? decoder.decode(target) : "",
        undefined,
        undefined,
        { context: 3 },
      ).replace(/^=+\n/, ""),
    );
  }
  return {
    diff: parts.join(""),
    files_changed: files,
    total_changes: files.filter((f) => f.status !== "unchanged").length,
    checkpoints: cps.map((c) => c.id),
  };
}

/** Put every file of `cps` back as it was before them; marks them restored. */
export async function restoreCheckpoints(
  store: CheckpointStore,
  workspace: string,
  guard: Guard,
  cps: Checkpoint[],
  now: number,
): Promise<
  { ok: boolean; files_restored: string[]; errors: Array<{ file: string; error: string }> }
> {
  const restored: string[] = [];
  const errors: Array<{ file: string; error: string }> = [];
  for (const [path, { to }] of targets(cps)) {
    try {
      if (to.skipped) throw new Error(`its earlier content was not kept (${to.skipped})`);
      if (to.sha === null) {
        if (!removeFile(workspace, path, guard)) throw new Error("a folder is there now");
      } else {
        const bytes = await store.getBlob(to.sha);
        if (!bytes) throw new Error("its saved content is missing");
        writeFile(workspace, path, bytes, guard);
      }
      restored.push(path);
    } catch (err) {
      errors.push({ file: path, error: (err as Error).message });
    }
  }
  for (const cp of cps) await store.save({ ...cp, restored_at: now });
  if (!restored.length && errors.length) {
    throw new ConflictError(`Nothing could be restored: ${errors[0].file}: ${errors[0].error}`, {
      errors,
    });
  }
  return { ok: errors.length === 0, files_restored: restored, errors };
}
