// Recently deleted: the panel's delete moves an entry into `<stateDir>/trash/<id>/item` (one
// rename from a directory fd held beneath the workspace, so a swapped path cannot make it take
// something else) with `meta.json` beside it, restorable for TRASH_KEEP_DAYS. Invariants: the
// trash lives in the state dir, which the agent and the panel never see; an item restores only
// into the workspace it came from and never over an existing entry; ids are checked before they
// become paths.
import { join } from "node:path";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import type { ProtectedPathsConfig } from "./protected_paths.ts";
import { openEntry } from "./file_ops.ts";
import { closeFd, fdPath, openRootDir, renameAt, SafeFsError } from "../sandbox/safe_fs.ts";

export const TRASH_KEEP_DAYS = 7;
const ID_RE = /^[0-9]{13}-[0-9a-f]{12}$/;

export interface TrashItem {
  id: string;
  /** The real workspace root the entry came from. */
  workspace: string;
  /** Its workspace-relative path when deleted. */
  path: string;
  name: string;
  type: "dir" | "file" | "symlink" | "other";
  size: number | null;
  /** Epoch seconds. */
  deleted_at: number;
}

function trashRoot(stateDir: string): string {
  return join(stateDir, "trash");
}

function newId(now: number): string {
  const r = crypto.getRandomValues(new Uint8Array(6));
  return `${String(now).padStart(13, "0")}-${
    Array.from(r, (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

/**
 * POST /api/file/delete: move `rel` (the entry itself; a symlink is removed as a link) to the
 * trash. A folder needs `recursive` (the original's rule). When the workspace is on another
 * filesystem than the state dir (no single rename can reach the trash), only `permanent`
 * deletes, and the 409 says so.
 */
export async function deleteEntry(
  stateDir: string,
  workspace: string,
  rel: string,
  opts: { recursive?: boolean; permanent?: boolean; protect?: ProtectedPathsConfig; now?: number },
): Promise<{ ok: true; path: string; trash_id: string | null }> {
  const e = await openEntry(workspace, rel, opts.protect);
  try {
    if (!e.stat) throw new NotFoundError(`File not found: "${rel}"`);
    if (e.stat.type === "dir" && !opts.recursive) {
      throw new ValidationError("Set recursive=true to delete directories", "recursive");
    }
    const now = opts.now ?? Date.now();
    const id = newId(now);
    if (opts.permanent) {
      // Rename aside first (same folder, always possible), then remove what the held fd names.
      const aside = `.hermes-deleting-${id}`;
      try {
        renameAt(e.dir.fd, e.leaf, e.dir.fd, aside);
      } catch (err) {
        if (err instanceof SafeFsError) throw new NotFoundError(`File not found: "${rel}"`);
        throw err;
      }
      await Deno.remove(join(fdPath(e.dir.fd), aside), { recursive: true });
      return { ok: true, path: e.rel, trash_id: null };
    }
    const dir = join(trashRoot(stateDir), id);
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const trashFd = openRootDir(dir);
    try {
      renameAt(e.dir.fd, e.leaf, trashFd, "item");
    } catch (err) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      if (err instanceof SafeFsError && err.code === "EXDEV") {
        throw new ConflictError(
          "The trash is on another filesystem than this workspace; delete permanently instead",
          { permanent_required: true },
        );
      }
      if (err instanceof SafeFsError) throw new NotFoundError();
      throw err;
    } finally {
      closeFd(trashFd);
    }
    const item: TrashItem = {
      id,
      workspace: e.dir.root,
      path: e.rel,
      name: e.leaf,
      type: e.stat.type,
      size: e.stat.type === "file" ? e.stat.size : null,
      deleted_at: now / 1000,
    };
    await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(item), { mode: 0o600 });
    return { ok: true, path: e.rel, trash_id: id };
  } finally {
    e.dir.close();
  }
}

async function readMeta(stateDir: string, id: string): Promise<TrashItem | null> {
  if (!ID_RE.test(id)) return null;
  try {
    const m = JSON.parse(await Deno.readTextFile(join(trashRoot(stateDir), id, "meta.json")));
    return m && m.id === id ? m as TrashItem : null;
  } catch {
    return null;
  }
}

/**
 * GET /api/file/trash: this workspace's recently deleted entries, newest first. Items older
 * than TRASH_KEEP_DAYS are purged on the way.
 */
export async function listTrash(
  stateDir: string,
  workspace: string,
  now = Date.now(),
): Promise<TrashItem[]> {
  const root = await Deno.realPath(workspace);
  const out: TrashItem[] = [];
  let names: string[] = [];
  try {
    for await (const e of Deno.readDir(trashRoot(stateDir))) names.push(e.name);
  } catch {
    return [];
  }
  names = names.filter((n) => ID_RE.test(n));
  for (const id of names) {
    const meta = await readMeta(stateDir, id);
    const age = now - Number(id.slice(0, 13));
    if (age > TRASH_KEEP_DAYS * 86_400_000 || !meta) {
      // Meta written last: a folder without one younger than a minute may be a delete in flight.
      if (meta || age > 60_000) {
        await Deno.remove(join(trashRoot(stateDir), id), { recursive: true }).catch(() => {});
      }
      continue;
    }
    if (meta.workspace === root) out.push(meta);
  }
  return out.sort((a, b) => b.deleted_at - a.deleted_at);
}

/**
 * POST /api/file/restore {id}: put an item back where it was, in the workspace it came from.
 * Its folder must still exist and its name be free (409 otherwise: nothing is overwritten).
 */
export async function restoreFromTrash(
  stateDir: string,
  workspace: string,
  id: unknown,
  protect?: ProtectedPathsConfig,
): Promise<{ ok: true; path: string }> {
  if (typeof id !== "string" || !ID_RE.test(id)) throw new NotFoundError("Trash item not found");
  const meta = await readMeta(stateDir, id);
  const root = await Deno.realPath(workspace);
  if (!meta || meta.workspace !== root) throw new NotFoundError("Trash item not found");
  let e;
  try {
    e = await openEntry(workspace, meta.path, protect);
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new ConflictError(`The folder "${meta.path}" was in is gone; create it first`);
    }
    throw err;
  }
  const dir = join(trashRoot(stateDir), id);
  try {
    if (e.stat) throw new ConflictError(`"${meta.path}" exists again; rename it first`);
    const trashFd = openRootDir(dir);
    try {
      renameAt(trashFd, "item", e.dir.fd, e.leaf);
    } catch (err) {
      if (err instanceof SafeFsError && err.code === "EEXIST") {
        throw new ConflictError(`"${meta.path}" exists again; rename it first`);
      }
      if (err instanceof SafeFsError) throw new NotFoundError("Trash item not found");
      throw err;
    } finally {
      closeFd(trashFd);
    }
  } finally {
    e.dir.close();
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  return { ok: true, path: meta.path };
}
