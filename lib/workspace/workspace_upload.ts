// Uploads into a workspace folder (the panel's drag-drop), as opposed to chat attachments
// (uploads.ts). Invariants: the body is capped while it streams (readUploadForm); the target
// folder is made when missing, beneath the workspace only (upload_folder.ts); names are sanitized
// and never overwrite (`-N` on collision, O_CREAT|O_EXCL beneath a held folder fd); a .zip, .tar,
// .tar.gz or .tgz is extracted into a new folder there by the extract route's own code
// (archive_extract.ts: its caps, zip-slip and symlink refusal) instead of being stored, and an
// archive that cannot be extracted is reported in `extract_error` and leaves nothing behind.
import { extname } from "node:path";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import { isProtectedPath, type ProtectedPathsConfig, realSecretPaths } from "./protected_paths.ts";
import { join } from "node:path";
import { openUploadFolder } from "./upload_folder.ts";
import { extractArchive } from "./archive_extract.ts";
import { MAX_FILENAME_CHARS, sanitizeFilename } from "./uploads.ts";
import { mimeForName } from "./mime.ts";
import { formatBytes } from "../shared/byte_size.ts";
import { closeFd, O, openBeneath, SafeFsError, unlinkAt, writeFdAll } from "../sandbox/safe_fs.ts";

export interface WorkspaceUploadResult {
  filename: string;
  /** Workspace-relative path of the stored file. */
  path: string;
  size: number;
  mime: string;
  is_image: boolean;
  extracted: boolean;
  /** An extracted archive: the workspace-relative files written (first 500), and their count. */
  extracted_files?: string[];
  extracted_count?: number;
  /** An archive that could not be extracted: why (nothing of it is kept). */
  extract_error?: string;
}

/**
 * Names extracted instead of stored: the original's list less .tar.bz2 / .tar.xz, which
 * archive_extract.ts cannot read (those stay plain files rather than failing).
 */
const ARCHIVE_NAME = /\.(zip|tar|tar\.gz|tgz)$/i;

/**
 * Extract the archive `file` into a new folder of `dir` (workspace-relative). The archive itself
 * is not kept: on success its folder is the result, on failure the error is (a hostile or broken
 * archive is answered, not stored; the other files of the upload go on).
 */
async function extractUpload(
  workspace: string,
  dir: string,
  name: string,
  file: File,
  protect?: ProtectedPathsConfig,
): Promise<WorkspaceUploadResult> {
  const base = { filename: name, size: file.size, mime: mimeForName(name), is_image: false };
  try {
    const r = await extractArchive(workspace, dir, name, new Uint8Array(await file.arrayBuffer()), {
      protect,
    });
    return {
      ...base,
      path: r.dest,
      extracted: true,
      extracted_files: r.files,
      extracted_count: r.extracted,
    };
  } catch (err) {
    // The refusals extractArchive means (hostile entry, over a cap, not an archive) are answered;
    // anything else is a server fault and stays a logged 500.
    if (
      !(err instanceof ValidationError) && !(err instanceof PayloadTooLargeError) &&
      !(err instanceof NotFoundError)
    ) throw err;
    return { ...base, path: dir, extracted: false, extract_error: err.message };
  }
}

/**
 * Store each file of `files` in the folder `dir` of the workspace (made when missing) under an
 * unused name; archives are extracted there instead.
 */
export async function storeWorkspaceUploads(
  workspace: string,
  dir: string,
  files: File[],
  maxBytes: number,
  protect?: ProtectedPathsConfig,
): Promise<WorkspaceUploadResult[]> {
  if (files.length === 0) {
    throw new ValidationError('No file in the upload (expected a field named "file")', "file");
  }
  // The form's cap allows framing on top; the files themselves hold at most the limit, in all.
  const total = files.reduce((a, f) => a + f.size, 0);
  if (total > maxBytes) {
    throw new PayloadTooLargeError(
      `The upload is ${formatBytes(total)}; the limit is ${formatBytes(maxBytes)} ` +
        "(HERMES_WEBUI_MAX_UPLOAD_MB)",
    );
  }
  const held = await openUploadFolder(workspace, dir || ".", protect);
  const secrets = protect ? await realSecretPaths(protect) : [];
  const out: WorkspaceUploadResult[] = [];
  try {
    for (const file of files) {
      const safe = sanitizeFilename(file.name);
      if (ARCHIVE_NAME.test(safe)) {
        out.push(await extractUpload(workspace, held.rel, safe, file, protect));
        continue;
      }
      const ext = extname(safe);
      const stem = ext ? safe.slice(0, -ext.length) : safe;
      let fd = -1;
      let name = safe;
      for (let n = 0; n < 1000 && fd === -1; n++) {
        const suffix = `-${n}${ext}`;
        name = n === 0 ? safe : stem.slice(0, MAX_FILENAME_CHARS - suffix.length) + suffix;
        // A protected path that does not exist yet (config.yaml beside the state) stays absent.
        if (isProtectedPath(join(held.real, name), secrets)) continue;
        try {
          fd = openBeneath(held.fd, name, O.WRONLY | O.CREAT | O.EXCL, {
            mode: 0o644,
            noSymlinks: true,
          });
        } catch (err) {
          if (!(err instanceof SafeFsError) || err.code !== "EEXIST") throw err;
        }
      }
      if (fd === -1) throw new ValidationError(`Too many uploads named "${safe}"`);
      try {
        writeFdAll(fd, new Uint8Array(await file.arrayBuffer()));
      } catch (err) {
        closeFd(fd);
        fd = -1;
        try {
          unlinkAt(held.fd, name);
        } catch { /* already gone */ }
        throw err;
      } finally {
        if (fd !== -1) closeFd(fd);
      }
      const mime = mimeForName(name);
      out.push({
        filename: name,
        path: held.rel === "." ? name : `${held.rel}/${name}`,
        size: file.size,
        mime,
        is_image: mime.startsWith("image/"),
        extracted: false,
      });
    }
  } finally {
    held.close();
  }
  return out;
}
