// The workspace folder an upload goes into, made when missing (the original's workspace upload
// creates `inbox/deep` on the way, as a drop onto a path typed by hand expects). Invariants: the
// requested path passes the one guard before anything is created, so `..`, absolute, look-alike
// or control-character paths and symlinks leading out of the workspace are a 400 that creates
// nothing; every name about to be made is checked first (a refusal leaves no half-made chain);
// the folders are then made one segment at a time beneath the real workspace root with no symlink
// followed (createMissingFolders), and the result is held open like any workspace folder.
import { join, relative, sep } from "node:path";
import { NotFoundError, ValidationError } from "../errors.ts";
import { checkNewName, createMissingFolders, type HeldDir, openWorkspaceDir } from "./file_ops.ts";
import type { ProtectedPathsConfig } from "./protected_paths.ts";
import { checkRelativePath, hasEntry, resolveInWorkspace } from "./workspace_paths.ts";

// deno-lint-ignore no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/g;

/**
 * Why a path the guard refused may simply be a mistake: one of its segments is a file. Only real
 * folders of the workspace are looked through (the walk stops at the first symlink), so nothing
 * is said about what lies outside it.
 */
async function fileInTheWay(root: string, rel: string): Promise<ValidationError | null> {
  const segments = rel.split("/").filter((s) => s !== "" && s !== ".");
  for (let i = 1; i <= segments.length; i++) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(join(root, ...segments.slice(0, i)));
    } catch {
      return null;
    }
    if (info.isSymlink) return null;
    if (info.isFile) {
      return new ValidationError(
        `"${segments.slice(0, i).join("/")}" is a file, not a folder`,
        "path",
      );
    }
  }
  return null;
}

/**
 * Open the folder `dir` of the workspace for an upload, making the folders of it that do not
 * exist yet. A path that leaves the workspace (by its spelling or through a symlink) is a 400; a
 * segment that is a file is a 400 naming it; a protected folder is a 404, as everywhere.
 */
export async function openUploadFolder(
  workspace: string,
  dir: string,
  protect?: ProtectedPathsConfig,
): Promise<HeldDir> {
  const outside = () =>
    new ValidationError(
      `Upload folder "${dir.replace(CONTROL_CHARS, "?").slice(0, 200)}" is not a folder ` +
        "inside the workspace",
      "path",
    );
  let rel: string;
  try {
    rel = checkRelativePath(dir);
  } catch {
    throw outside();
  }
  let root: string;
  try {
    root = await Deno.realPath(workspace);
  } catch {
    throw new NotFoundError("The session's workspace folder does not exist");
  }
  // The guard resolves what exists (symlinks inside the workspace are followed to their real
  // place, ones leading out are refused) and appends the missing rest unresolved.
  let real: string;
  try {
    real = await resolveInWorkspace(root, rel, { mustExist: false });
  } catch {
    throw await fileInTheWay(root, rel) ?? outside();
  }
  const segments = relative(root, real).split(sep).filter((s) => s !== "");
  let existing = 0;
  while (
    existing < segments.length && await hasEntry(join(root, ...segments.slice(0, existing + 1)))
  ) existing++;
  for (const segment of segments.slice(existing)) {
    try {
      checkNewName(segment);
    } catch {
      const shown = segment.replace(CONTROL_CHARS, "?");
      const why = new TextEncoder().encode(segment).length > 255
        ? "longer than 255 bytes"
        : "not a valid folder name";
      throw new ValidationError(
        `"${shown.length > 60 ? shown.slice(0, 60) + "…" : shown}" is ${why}`,
        "path",
      );
    }
  }
  const realRel = segments.join("/") || ".";
  await createMissingFolders(root, realRel, protect);
  return await openWorkspaceDir(root, realRel, protect);
}
